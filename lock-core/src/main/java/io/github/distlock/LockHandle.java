package io.github.distlock;

import java.time.Duration;

/**
 * One acquisition of a distributed lock. Closing it releases the lock (or, when nested on
 * the same thread, one level of it).
 */
public interface LockHandle extends AutoCloseable {

	/**
	 * The raw lock id, as passed to {@link LockService} or built from the annotation.
	 * @return the lock id
	 */
	String lockId();

	/**
	 * A fencing token: strictly greater than every token handed out earlier for the same
	 * lock id. Pass it to the resource you protect so that it can reject writes from a
	 * holder whose lease ran out.
	 * <p>
	 * The Redis store issues it on the first call (one owner-checked round trip, then
	 * cached), so that holders that never read it do not pay for it. A hold that ended
	 * (released, lost, or its lease ran out) before its token was first read has none:
	 * the answer is then 0, which is below every token, so a resource that accepts only
	 * greater tokens rejects it. The first call fails as any lock call does when the
	 * store cannot be reached (a later call asks again): read the token before your first
	 * write.
	 * @return the fencing token, or 0 as above
	 * @throws RuntimeException the store's failure when the token could not be issued
	 */
	long fencingToken();

	/**
	 * Whether this handle still holds the lock: {@code false} once released, expired or
	 * lost (renewal failed, key gone or taken).
	 * @return {@code true} while held
	 */
	boolean isHeld();

	/**
	 * Sets the lease of this hold to {@code leaseTime} from now, if the lock is still
	 * held.
	 * <p>
	 * On a lock with a fixed lease this resets the lease once; it is still never renewed.
	 * On an auto-renewed lock the watchdog renews it with {@code leaseTime} from then on,
	 * about every third of it, so a shorter lease means a holder that dies frees the lock
	 * sooner, never that a live holder loses it. The lease in Redis and the one
	 * {@link #isHeld()} checks are set together, one change after the other with the
	 * watchdog's renewals: the local lease never ends later than the key in Redis.
	 * @param leaseTime the new lease, counted from now; at least 1 ms (3 ms on an
	 * auto-renewed lock), whole milliseconds
	 * @return {@code true} if extended, {@code false} if the lock is no longer held
	 * @throws RuntimeException the store's failure when it did not answer (unreachable,
	 * timed out): the lease counts as not reset (the local one ends no later than either
	 * would), and an auto-renewed lock goes on being renewed
	 */
	boolean extend(Duration leaseTime);

	/**
	 * Releases the lock if still owned. Never deletes a lock owned by anyone else.
	 * Idempotent.
	 * @throws LockLostException if the lock had been lost before this release
	 */
	@Override
	void close();

	/**
	 * Releases like {@link #close()}, but when less than {@code minHoldTime} has passed
	 * since the lock was acquired, the lock is left to expire at acquisition +
	 * {@code minHoldTime} instead of being deleted, so that nobody acquires it earlier.
	 * @param minHoldTime how long the lock stays held at least, counted from acquisition
	 * @throws LockLostException if the lock had been lost before this release
	 */
	void close(Duration minHoldTime);

}
