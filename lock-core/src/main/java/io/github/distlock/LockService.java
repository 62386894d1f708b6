package io.github.distlock;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Supplier;

import io.github.distlock.support.DurationText;
import io.github.distlock.support.LogSafe;
import org.jspecify.annotations.Nullable;

/**
 * Distributed locks shared by every instance of the application.
 * <p>
 * A thread that holds a lock id may acquire it again through the same {@code LockService}
 * without waiting; the lock is released when the outermost holder releases it. Every
 * other thread, in this JVM or elsewhere, is excluded.
 * <p>
 * An implementation provides {@link #tryLock} and {@link #isLocked}; the other methods
 * are built on {@code tryLock}.
 */
public interface LockService {

	/**
	 * Waits up to {@code waitTime} for the lock.
	 * <p>
	 * An attempt that the lock store could not answer (unreachable, timed out, failing
	 * over) is repeated while the wait time remains. When it passes with the last attempt
	 * unanswered, {@link LockNotAcquiredException} is thrown with the store's failure as
	 * its cause: empty means that others hold the lock.
	 * @param lockId the lock id
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once
	 * @param leaseTime a fixed lease that is never renewed, or {@code null} for an
	 * auto-renewed lease
	 * @return the handle, or empty if others held the lock until the wait time passed
	 * @throws LockNotAcquiredException when the lock store did not answer the last
	 * attempt, when interrupted, or when the lock service shut down meanwhile
	 */
	Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime);

	/**
	 * {@link #tryLock} with the auto-renewed lease.
	 * @param lockId the lock id
	 * @param waitTime how long to wait
	 * @return the handle
	 * @throws LockNotAcquiredException when {@code waitTime} passes
	 */
	default LockHandle lock(String lockId, Duration waitTime) {
		return tryLock(lockId, waitTime, null).orElseThrow(() -> new LockNotAcquiredException(lockId,
				"Lock '" + LogSafe.text(lockId) + "' was not acquired within " + DurationText.of(waitTime)));
	}

	/**
	 * Runs {@code action} while holding the lock (auto-renewed lease), then releases it.
	 * @param <T> the result type
	 * @param lockId the lock id
	 * @param waitTime how long to wait
	 * @param action the critical section
	 * @return what {@code action} returned
	 * @throws LockNotAcquiredException when {@code waitTime} passes
	 */
	default <T> T executeLocked(String lockId, Duration waitTime, Supplier<T> action) {
		try (LockHandle handle = lock(lockId, waitTime)) {
			return action.get();
		}
	}

	/**
	 * Runs {@code action} while holding the lock (auto-renewed lease), then releases it.
	 * @param lockId the lock id
	 * @param waitTime how long to wait
	 * @param action the critical section
	 * @throws LockNotAcquiredException when {@code waitTime} passes
	 */
	default void runLocked(String lockId, Duration waitTime, Runnable action) {
		try (LockHandle handle = lock(lockId, waitTime)) {
			action.run();
		}
	}

	/**
	 * Acquires several locks, all or none: one id per distinct element, in one global
	 * order (the ids' natural {@code String} order, the same in every instance), so that
	 * callers naming the same ids in any order never deadlock; a failure part-way
	 * releases what was taken. The handle is a {@link MultiLockHandle}: its
	 * {@link MultiLockHandle#fencingTokens() fencingTokens()} has each lock's token, and
	 * losing any one lock is losing the handle.
	 * @param lockIds the ids; duplicates count once; not empty
	 * @param waitTime how long all of them together may take; {@link Duration#ZERO} tries
	 * once
	 * @param leaseTime a fixed lease for each lock, or {@code null} for auto-renewed
	 * leases
	 * @return the handle, or empty when one of the locks was not acquired in time
	 * @throws IllegalArgumentException for an empty collection or a {@code null} or blank
	 * id
	 */
	default Optional<LockHandle> tryLockAll(Collection<String> lockIds, Duration waitTime,
			@Nullable Duration leaseTime) {
		return MultiLockHandle.acquire(lockIds, waitTime, (lockId, left) -> tryLock(lockId, left, leaseTime));
	}

	/**
	 * Whether anyone, on any instance, holds the lock now.
	 * @param lockId the lock id
	 * @return {@code true} if the lock is held
	 */
	boolean isLocked(String lockId);

	/**
	 * This service's locks, acquired first come, first served across all instances: every
	 * acquisition through the returned view waits behind every earlier one through a fair
	 * view, on any instance, and none takes a lock past them (as
	 * {@code @DistributedLock(fair = true)} does). The locks are the same ids and the
	 * same locks as this service's: a fair and an unfair acquisition of one id exclude
	 * each other, but an unfair one does not queue and may pass fair waiters. Fairness
	 * costs throughput under contention: a lock is never handed to a waiting thread of
	 * the same instance directly, each waiter sends its own attempts, and a released lock
	 * is granted to the first waiter (wherever it runs) which claims it with one more
	 * round trip.
	 * @return the fair view; its {@code fair()} is itself
	 * @throws UnsupportedOperationException when this service's store has no fair locks
	 * (the quorum store, or Redis with {@code distributed-lock.replication.min-replicas}
	 * above 0)
	 */
	default LockService fair() {
		throw new UnsupportedOperationException(getClass().getName() + " does not support fair locks");
	}

	/**
	 * This service's locks held as READ (shared) holds: any number of READ holders of an
	 * id at once, on any instance, while nobody holds it exclusively (as this service's
	 * own acquisitions do, and {@code @DistributedLock(mode = WRITE)}). Once an exclusive
	 * acquisition waits for the id, new READ acquisitions wait behind it, so writers are
	 * not starved. A thread holding READ cannot take the exclusive lock of the same id
	 * ({@link IllegalStateException} at once: an upgrade would deadlock two readers); a
	 * thread holding the exclusive lock may take READ (a nested hold of it). Each READ
	 * hold has its own fencing token; an exclusive hold's token is greater than every
	 * earlier hold's. Renewal, leases, {@code extend}, loss and release work as for
	 * exclusive holds, each hold on its own.
	 * @return the READ view; its {@code read()} is itself
	 * @throws UnsupportedOperationException when this service's store has no shared locks
	 * (the quorum store, or Redis with {@code distributed-lock.replication.min-replicas}
	 * above 0)
	 */
	default LockService read() {
		throw new UnsupportedOperationException(getClass().getName() + " does not support READ locks");
	}

	/**
	 * This service's locks held as permits of a semaphore: at most {@code permits}
	 * holders of an id at once, on any instance. Each permit is an owned, leased hold:
	 * only its holder releases it, it is auto-renewed (or has a fixed lease), and the
	 * permit of a holder that died comes back when its lease ends, by the store's clock.
	 * The number of permits is part of the id's identity: an acquisition asking another
	 * number, or READ, while the id has holders fails with {@link IllegalStateException}.
	 * An exclusive acquisition of the id waits until no permit is held, and new permits
	 * wait behind it.
	 * @param permits the number of permits, at least 1 (1 is this service itself)
	 * @return the semaphore view
	 * @throws IllegalArgumentException when {@code permits} is less than 1
	 * @throws UnsupportedOperationException when this service's store has no shared locks
	 */
	default LockService permits(int permits) {
		throw new UnsupportedOperationException(getClass().getName() + " does not support permits");
	}

}
