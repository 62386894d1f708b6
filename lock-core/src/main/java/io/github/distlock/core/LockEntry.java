package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.util.ArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * What this instance knows about one lock key: its local holder (and the holds handed out
 * and not closed yet), the local waiters ({@link LocalWaiters}, of which only the head
 * competes in the store, so N local waiters cost one store attempt, not N), the threads
 * queued in the store ({@link QueuedWaiters}) and the turn owed to other instances
 * ({@link TurnForOthers}).
 * <p>
 * The guard is held only for in-memory state changes, never across a store call.
 */
final class LockEntry {

	final String key;

	final String lockId;

	/**
	 * The key of the entry in {@link LockEntries}: the store key, or for the READ holds
	 * of one thread the key, a line break and the thread's id, for one permit that and
	 * another line break and the number of the acquisition.
	 */
	final String mapKey;

	/**
	 * -1 for the entry of the exclusive lock, 0 for that of one thread's READ holds, the
	 * number of permits for that of one permit.
	 */
	final int sharedPermits;

	/** The engine's runtime, for the holds and waits of this lock. */
	final EngineRuntime runtime;

	private final ReentrantLock guard = new ReentrantLock();

	private volatile @Nullable HeldLock holder;

	/**
	 * Holds handed to callers and not yet closed, held or lost: normally just the holder,
	 * more only while threads whose lock was lost have yet to close it or lock it again.
	 * Re-entry looks here, so that a thread whose lock was lost never re-enters a lock
	 * another local thread took meanwhile: it {@linkplain #retireEnded retires} its ended
	 * hold and acquires anew.
	 */
	private final ArrayList<HeldLock> unreleased = new ArrayList<>(1);

	/** Consecutive hand-overs while the lock was flagged contended from outside. */
	private int handOversSinceStoreAcquire;

	/** The threads of this instance waiting for the lock, in arrival order. */
	final LocalWaiters waiters = new LocalWaiters();

	/** The turn owed to waiters of other instances after a hand-over freed the lock. */
	final TurnForOthers turnForOthers;

	/**
	 * The threads that may be queued in the store for this lock, by owner token: fair
	 * waiters (which never queue locally) and, with a store that grants, the local
	 * waiters of the default mode.
	 */
	final QueuedWaiters queuedWaiters = new QueuedWaiters();

	/**
	 * Threads in tryLock or holding, counted to drop idle entries; guarded by the entry
	 * map.
	 */
	private int users;

	LockEntry(String key, String lockId) {
		this(key, lockId, new LongAdder(), EngineRuntime.system());
	}

	/**
	 * @param key the store key
	 * @param lockId the lock id
	 * @param announcementFallbacks counts the hold-backs of {@link TurnForOthers} that
	 * ended by the fallback
	 * @param runtime the engine's runtime
	 */
	LockEntry(String key, String lockId, LongAdder announcementFallbacks, EngineRuntime runtime) {
		this(key, lockId, key, -1, announcementFallbacks, runtime);
	}

	/**
	 * An entry of one thread's READ holds ({@code sharedPermits} 0), of one permit (the
	 * number of permits), or of the exclusive lock (-1, {@code mapKey} the key).
	 */
	LockEntry(String key, String lockId, String mapKey, int sharedPermits, LongAdder announcementFallbacks,
			EngineRuntime runtime) {
		this.key = key;
		this.lockId = lockId;
		this.mapKey = mapKey;
		this.sharedPermits = sharedPermits;
		this.runtime = runtime;
		this.turnForOthers = new TurnForOthers(announcementFallbacks, runtime);
	}

	/**
	 * One more thread tries to lock or holds this lock. Called under the entry map's
	 * compute, which guards the count.
	 */
	void enter() {
		this.users++;
	}

	/**
	 * A thread that {@linkplain #enter() entered} is done with this lock. Called under
	 * the entry map's compute.
	 * @return whether no thread uses the entry any more, so that it can be dropped
	 */
	boolean leave() {
		return --this.users == 0;
	}

	@Nullable HeldLock holder() {
		return this.holder;
	}

	boolean hasLiveHolder() {
		HeldLock current = this.holder;
		return current != null && current.isHeld();
	}

	/**
	 * No live local holder, no hand-over in flight and no local waiter ahead: a newcomer
	 * may go straight to the store.
	 */
	boolean isFree() {
		return !hasLiveHolder() && !this.waiters.isHandingOver() && !this.waiters.hasWaiters();
	}

	void acquiredFromStore(HeldLock held) {
		this.guard.lock();
		try {
			this.holder = held;
			this.unreleased.add(held);
			this.handOversSinceStoreAcquire = 0;
		}
		finally {
			this.guard.unlock();
		}
	}

	void handedOver(HeldLock held) {
		this.guard.lock();
		try {
			this.holder = held;
			this.unreleased.add(held);
			this.handOversSinceStoreAcquire++;
			this.waiters.handedOver();
		}
		finally {
			this.guard.unlock();
		}
	}

	int handOversSinceStoreAcquire() {
		return this.handOversSinceStoreAcquire;
	}

	/** The hold of {@code thread} that it has not closed yet, held or lost, if any. */
	@Nullable HeldLock unreleasedHoldOf(Thread thread) {
		this.guard.lock();
		try {
			for (HeldLock held : this.unreleased) {
				if (held.owner == thread) {
					return held;
				}
			}
			return null;
		}
		finally {
			this.guard.unlock();
		}
	}

	boolean isUnreleased(HeldLock held) {
		this.guard.lock();
		try {
			return this.unreleased.contains(held);
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * Its owner closed {@code held} (or it was undone): it can no longer be re-entered.
	 */
	void holdClosed(HeldLock held) {
		this.guard.lock();
		try {
			this.unreleased.remove(held);
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * Forgets {@code held} as the local holder (unless another one replaced it) and wakes
	 * the head.
	 */
	void holderGone(HeldLock held) {
		this.guard.lock();
		try {
			if (this.holder == held) {
				this.holder = null;
			}
		}
		finally {
			this.guard.unlock();
		}
		this.waiters.signalHead();
	}

	/** The store announced a release of this lock: wakes the head. */
	void releaseAnnounced() {
		this.turnForOthers.announced();
		this.queuedWaiters.signalAll();
		this.waiters.signalHead();
	}

	/**
	 * Re-enters the hold of {@code thread}, if it still holds one: a hold that ended
	 * (lease run out, or lost) is not re-entered, see {@link #retireEnded}.
	 * @return the hold, one level deeper, or {@code null} if the thread holds none now
	 */
	@Nullable HeldLock reenter(Thread thread) {
		HeldLock current = unreleasedHoldOf(thread);
		if (current == null || !current.isHeld()) {
			return null;
		}
		current.reenter();
		return current;
	}

	/**
	 * Retires the hold of {@code thread} that ended (its lease ran out, or it was lost)
	 * while the thread kept it open: it no longer counts as the thread's, so the thread
	 * acquires the lock afresh (a forgotten handle must not block its thread), and its
	 * handle's close still finds it lost. The caller reports the loss.
	 * @return the retired hold, or {@code null} if the thread has no ended hold open
	 */
	@Nullable HeldLock retireEnded(Thread thread) {
		this.guard.lock();
		try {
			for (HeldLock held : this.unreleased) {
				if (held.owner == thread && !held.isHeld()) {
					this.unreleased.remove(held);
					return held;
				}
			}
			return null;
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * The store announced that this lock was released and granted to the queued waiter
	 * {@code owner}, without its token: wakes that waiter if it is one of this instance's
	 * (it claims the lock).
	 */
	void grantAnnounced(String owner) {
		this.turnForOthers.announced();
		this.queuedWaiters.granted(owner);
		this.waiters.signalHead();
	}

	/**
	 * The store announced that this lock was released and granted to the queued waiter
	 * {@code owner} with {@code fencingToken}: that waiter, if it is one of this
	 * instance's, holds it.
	 */
	void grantAnnounced(String owner, long fencingToken) {
		this.turnForOthers.announced();
		this.queuedWaiters.granted(owner, fencingToken);
		// A local head holding back for this announcement (TurnForOthers) competes now:
		// refused, it queues and flags the lock, so that the instance granted it takes
		// its turn and not a run.
		this.waiters.signalHead();
	}

	void signalAll() {
		this.waiters.signalAll();
		this.queuedWaiters.signalAll();
	}

}
