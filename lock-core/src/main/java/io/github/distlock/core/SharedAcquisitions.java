package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.OnLockFailure;
import io.github.distlock.observation.NamedLockService;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.SharedLockConflictException;
import io.github.distlock.support.LogSafe;
import org.jspecify.annotations.Nullable;

/**
 * The shared holds of a {@link LockEngine}: READ holds and permits, through its
 * {@link SharedLockService} views, with the rules that tie them to the engine's exclusive
 * locks of the same ids on one thread: a thread holding the exclusive lock gets a shared
 * hold as a nested hold of it; a thread holding a shared hold is refused the exclusive
 * lock at once (an upgrade: two holders upgrading would wait for each other forever) and
 * another kind of shared hold of the same id. A thread re-enters its READ hold as a lock,
 * but each acquisition of a permit takes a permit of its own, also on a thread that holds
 * one already (as {@link java.util.concurrent.Semaphore}): it waits while all are taken.
 * A hold that ended while its thread kept it open counts for none of these rules: see
 * {@link Reentrancy}. Everything else (renewal, {@code extend}, loss, minimum hold,
 * release, shutdown) is the engine's, for shared holds as for exclusive ones: the store
 * releases and extends one shared hold of an owner as it does a lock.
 */
final class SharedAcquisitions {

	private final LockEngine engine;

	private final LockStore store;

	private final LockEntries entries;

	private final EngineShutdown shutdown;

	private final Reentrancy reentrancy;

	private final SharedAcquirer acquirer;

	private final SharedLockService read;

	SharedAcquisitions(LockEngine engine, LockStore store, LockEntries entries, EngineShutdown shutdown,
			Reentrancy reentrancy, SharedAcquirer acquirer) {
		this.engine = engine;
		this.store = store;
		this.entries = entries;
		this.shutdown = shutdown;
		this.reentrancy = reentrancy;
		this.acquirer = acquirer;
		this.read = new SharedLockService(this, 0);
	}

	/**
	 * The READ view.
	 * @throws UnsupportedOperationException when the store has no shared locks
	 */
	NamedLockService read() {
		checkSupported("READ locks are");
		return this.read;
	}

	/**
	 * The view of a semaphore of {@code permits}.
	 * @param permits at least 2
	 * @throws IllegalArgumentException for fewer than 2 permits
	 * @throws UnsupportedOperationException when the store has no shared locks
	 */
	NamedLockService permits(int permits) {
		if (permits < 2) {
			throw new IllegalArgumentException("permits must be at least 1, but was " + permits);
		}
		checkSupported("Permits are");
		return new SharedLockService(this, permits);
	}

	private void checkSupported(String what) {
		if (!this.store.supportsSharedLocks()) {
			throw new UnsupportedOperationException(what + " not supported by the lock store "
					+ this.store.getClass().getSimpleName()
					+ ": they need distributed-lock.store=redis (without distributed-lock.replication.min-replicas)"
					+ " or distributed-lock.store=in-memory");
		}
	}

	Optional<LockHandle> tryLock(@Nullable String lockName, String lockId, Duration waitTime,
			@Nullable Duration leaseTime, OnLockFailure onFailure, int permits) {
		LockArguments.check(lockId, waitTime, leaseTime);
		return this.shutdown.acquisition(lockId, () -> {
			String key = this.store.key(lockId);
			HeldLock exclusive = this.entries.reenterExclusive(key, lockId, Thread.currentThread(),
					this.reentrancy::reenter);
			if (exclusive != null) {
				return Optional.of(new LockEngineHandle(this.engine, exclusive));
			}
			return enterAndAcquire(lockName, key, lockId, waitTime, leaseTime, onFailure, permits);
		});
	}

	private Optional<LockHandle> enterAndAcquire(@Nullable String lockName, String key, String lockId,
			Duration waitTime, @Nullable Duration leaseTime, OnLockFailure onFailure, int permits) {
		HeldLock own = sharedHoldOfThisThread(key);
		if (own != null && own.entry.sharedPermits != permits) {
			throw new IllegalStateException("This thread holds lock '" + LogSafe.text(lockId) + "' as "
					+ SharedLockConflictException.describe(own.entry.sharedPermits) + " and cannot take it as "
					+ SharedLockConflictException.describe(permits) + " too");
		}
		LockEntry entry = this.entries.enterShared(key, lockId, Thread.currentThread(), permits);
		HeldLock acquired = null;
		try {
			HeldLock current = (permits == 0) ? this.reentrancy.reenter(entry) : null;
			if (current != null) {
				return Optional.of(new LockEngineHandle(this.engine, current));
			}
			long fixedLeaseNanos = (leaseTime != null) ? leaseTime.toNanos() : 0;
			LockObserver observer = this.engine.observer();
			acquired = observer.isNoop() ? this.acquirer.acquire(entry, waitTime, fixedLeaseNanos, permits)
					: observer.acquire(lockId, lockName, onFailure,
							() -> this.acquirer.acquire(entry, waitTime, fixedLeaseNanos, permits));
			if (acquired != null) {
				acquired.name = lockName;
			}
			return (acquired != null) ? Optional.of(new LockEngineHandle(this.engine, acquired)) : Optional.empty();
		}
		finally {
			if (acquired == null) {
				this.entries.leave(entry);
			}
		}
	}

	/**
	 * Refuses the exclusive lock of {@code key} to a thread holding a shared hold of it.
	 * @throws IllegalStateException when the calling thread holds a shared hold of it
	 */
	void refuseUpgrade(String key, String lockId) {
		HeldLock held = sharedHoldOfThisThread(key);
		if (held != null) {
			throw new IllegalStateException("This thread holds lock '" + LogSafe.text(lockId) + "' as "
					+ SharedLockConflictException.describe(held.entry.sharedPermits)
					+ " and asked for it exclusively: an upgrade is refused (two holders upgrading would wait for"
					+ " each other forever); release it first, or take the exclusive lock from the start");
		}
	}

	/**
	 * A shared hold of {@code key} the calling thread still holds, if any; those of its
	 * holds that ended while it kept them open are retired ({@link Reentrancy}).
	 */
	private @Nullable HeldLock sharedHoldOfThisThread(String key) {
		Thread thread = Thread.currentThread();
		HeldLock held = null;
		for (LockEntry entry : this.entries.sharedEntries(key)) {
			HeldLock ended = entry.retireEnded(thread);
			if (ended != null) {
				this.reentrancy.retire(ended);
			}
			HeldLock own = entry.unreleasedHoldOf(thread);
			held = (held != null) ? held : own;
		}
		return held;
	}

	boolean isLocked(String lockId) {
		return this.engine.isLocked(lockId);
	}

	@Override
	public String toString() {
		return this.engine.toString();
	}

}
