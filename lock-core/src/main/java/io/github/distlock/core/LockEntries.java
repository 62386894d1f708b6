package io.github.distlock.core;

import io.github.distlock.HeldLockInfo;
import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import io.github.distlock.store.ReleaseListener;
import org.jspecify.annotations.Nullable;

/**
 * The {@link LockEntry} of every lock id this instance holds or waits for, by store key.
 * An entry exists while a thread uses it (trying to lock or holding) and is dropped when
 * the last one leaves, so an idle instance tracks nothing.
 */
final class LockEntries implements ReleaseListener {

	private final ConcurrentHashMap<String, LockEntry> entries = new ConcurrentHashMap<>();

	/**
	 * The entries of shared holds, by store key: one per thread for its READ holds, one
	 * per acquisition for permits.
	 */
	private final ConcurrentHashMap<String, Set<LockEntry>> shared = new ConcurrentHashMap<>();

	/** Numbers the entries of permits, one per acquisition. */
	private final AtomicLong permitAcquisitions = new AtomicLong();

	private final LongAdder announcementFallbacks = new LongAdder();

	private final EngineRuntime runtime;

	LockEntries(EngineRuntime runtime) {
		this.runtime = runtime;
	}

	/**
	 * The calling thread starts using the lock: its entry, created if needed.
	 * @param key the store key
	 * @param lockId the lock id
	 * @return the entry, to {@link #leave} when done
	 */
	LockEntry enter(String key, String lockId) {
		return this.entries.compute(key, (k, existing) -> {
			LockEntry entry = (existing != null) ? existing
					: new LockEntry(k, lockId, this.announcementFallbacks, this.runtime);
			entry.enter();
			return entry;
		});
	}

	/**
	 * The calling thread starts a shared acquisition of the lock: for READ
	 * ({@code permits} 0) the entry of its READ holds, created if needed, which it
	 * re-enters as a lock; for a permit a new entry of this acquisition alone, as each
	 * acquisition takes a permit of its own (as {@link java.util.concurrent.Semaphore}).
	 * @return the entry, to {@link #leave} when done
	 */
	LockEntry enterShared(String key, String lockId, Thread thread, int permits) {
		String entryKey = sharedMapKey(key, thread)
				+ ((permits == 0) ? "" : "\n" + this.permitAcquisitions.incrementAndGet());
		return this.entries.compute(entryKey, (mapKey, existing) -> {
			LockEntry entry = existing;
			if (entry == null) {
				LockEntry created = new LockEntry(key, lockId, mapKey, permits, this.announcementFallbacks,
						this.runtime);
				this.shared.compute(key, (k, entries) -> {
					Set<LockEntry> all = (entries != null) ? entries : ConcurrentHashMap.newKeySet();
					all.add(created);
					return all;
				});
				entry = created;
			}
			entry.enter();
			return entry;
		});
	}

	/**
	 * The hold of the exclusive lock of {@code key} that {@code thread} has not closed,
	 * re-entered by {@code reenter} (one level deeper, its entry entered), if any.
	 */
	@Nullable HeldLock reenterExclusive(String key, String lockId, Thread thread,
			Function<LockEntry, @Nullable HeldLock> reenter) {
		LockEntry existing = this.entries.get(key);
		if (existing == null || existing.unreleasedHoldOf(thread) == null) {
			return null;
		}
		LockEntry entry = enter(key, lockId);
		try {
			HeldLock held = reenter.apply(entry);
			if (held == null) {
				leave(entry);
			}
			return held;
		}
		catch (RuntimeException ex) {
			leave(entry);
			throw ex;
		}
	}

	/**
	 * The entries of the shared holds of {@code key} this instance holds or acquires.
	 */
	Collection<LockEntry> sharedEntries(String key) {
		Set<LockEntry> all = this.shared.get(key);
		return (all != null) ? all : Set.of();
	}

	@SuppressWarnings("deprecation") // Thread.threadId() is Java 19 and later
	private static String sharedMapKey(String key, Thread thread) {
		return key + '\n' + thread.getId();
	}

	/**
	 * A thread that {@linkplain #enter entered} is done; the last one drops the entry.
	 */
	void leave(LockEntry entry) {
		this.entries.computeIfPresent(entry.mapKey, (k, existing) -> {
			if (existing != entry || !existing.leave()) {
				return existing;
			}
			if (entry.sharedPermits >= 0) {
				this.shared.computeIfPresent(entry.key, (key, all) -> {
					all.remove(entry);
					return all.isEmpty() ? null : all;
				});
			}
			return null;
		});
	}

	/**
	 * Wakes the waiting shared holders of {@code key}: a release or grant was announced.
	 */
	private void wakeShared(String key) {
		Set<LockEntry> waiting = this.shared.get(key);
		if (waiting != null) {
			waiting.forEach(LockEntry::releaseAnnounced);
		}
	}

	/**
	 * The store announced the release of {@code key}: wakes the first local waiter, if
	 * any.
	 */
	@Override
	public void released(String key) {
		LockEntry entry = this.entries.get(key);
		if (entry != null) {
			entry.releaseAnnounced();
		}
		wakeShared(key);
	}

	/**
	 * The store announced that the lock of {@code key} was granted to the fair waiter
	 * {@code owner}: wakes it, if it is one of this instance's.
	 */
	@Override
	public void granted(String key, String owner) {
		LockEntry entry = this.entries.get(key);
		if (entry != null) {
			entry.grantAnnounced(owner);
		}
		wakeShared(key);
	}

	/**
	 * The store announced that the lock of {@code key} was granted to the fair waiter
	 * {@code owner} with {@code fencingToken}: that waiter holds it, if it is one of this
	 * instance's.
	 */
	@Override
	public void granted(String key, String owner, long fencingToken) {
		LockEntry entry = this.entries.get(key);
		if (entry != null) {
			entry.grantAnnounced(owner, fencingToken);
		}
		wakeShared(key);
	}

	/**
	 * How many times a local head stopped holding back for the other instances' turn
	 * ({@link TurnForOthers}) because the fallback had passed, not because the
	 * announcement it waited for had arrived.
	 */
	long announcementFallbacks() {
		return this.announcementFallbacks.sum();
	}

	Collection<LockEntry> all() {
		return this.entries.values();
	}

	/** The holders of the locks held now. */
	List<HeldLock> holders() {
		List<HeldLock> holders = new ArrayList<>();
		for (LockEntry entry : this.entries.values()) {
			HeldLock held = entry.holder();
			if (held != null) {
				holders.add(held);
			}
		}
		return holders;
	}

	int size() {
		return this.entries.size();
	}

	/**
	 * A snapshot of the holds held now: one per exclusive lock, per thread's READ hold
	 * and per permit.
	 */
	List<HeldLockInfo> heldLocks() {
		List<HeldLockInfo> held = new ArrayList<>();
		long now = this.runtime.nanoTime();
		Instant wallNow = Instant.now();
		for (LockEntry entry : this.entries.values()) {
			HeldLock holder = entry.holder();
			if (holder != null && holder.isHeld()) {
				int permits = Math.max(entry.sharedPermits, 0);
				HeldLockInfo.Mode mode = (entry.sharedPermits < 0) ? HeldLockInfo.Mode.EXCLUSIVE
						: (permits == 0) ? HeldLockInfo.Mode.READ : HeldLockInfo.Mode.PERMITS;
				held.add(new HeldLockInfo(entry.lockId, holder.knownFencingToken(),
						wallNow.minusNanos(now - holder.acquiredAtNanos), Duration.ofNanos(holder.remainingNanos()),
						holder.depth(), holder.autoRenewed, holder.renewalFailing, holder.name, mode, permits));
			}
		}
		return held;
	}

	/**
	 * For a shutdown: releases every held lock (owner-checked, once: the hold is marked
	 * lost first) and wakes every waiting thread.
	 */
	void releaseHoldersAndWakeWaiters(LockReleaser releaser) {
		for (LockEntry entry : this.entries.values()) {
			HeldLock held = entry.holder();
			if (held != null && held.markLost("released when the LockService shut down")) {
				releaser.releaseQuietly(entry.key, held.ownerToken);
			}
			entry.signalAll();
		}
	}

	/** Whether the last renewal of any held lock failed. */
	boolean isRenewalFailing() {
		for (LockEntry entry : this.entries.values()) {
			HeldLock holder = entry.holder();
			if (holder != null && holder.isHeld() && holder.renewalFailing) {
				return true;
			}
		}
		return false;
	}

}
