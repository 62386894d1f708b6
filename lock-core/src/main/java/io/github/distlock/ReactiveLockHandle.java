package io.github.distlock;

import java.time.Duration;

import reactor.core.publisher.Mono;

/**
 * A lock held through a {@link ReactiveLockService}: owned by the acquisition that
 * yielded it, not by a thread, so any thread may extend or release it.
 */
public interface ReactiveLockHandle {

	/**
	 * The lock id.
	 * @return the lock id
	 */
	String lockId();

	/**
	 * Strictly greater than every token handed out earlier for the same lock id (see
	 * {@link LockHandle#fencingToken()}).
	 * @return the fencing token
	 */
	long fencingToken();

	/**
	 * Whether it is still held: {@code false} once released, expired, or lost (a renewal
	 * found the lock gone or taken). Answered locally, without a round trip.
	 * @return whether it is held
	 */
	boolean isHeld();

	/**
	 * Resets the lease to {@code leaseTime} if still held; an auto-renewed lock is
	 * renewed with it from then on.
	 * @param leaseTime the new lease: at least 1 ms, 3 ms for an auto-renewed lock
	 * @return whether the lease was reset; fails with the store's failure when the store
	 * did not answer (as {@link LockHandle#extend}): the lease then counts as not reset,
	 * and an auto-renewed lock is renewed as after a renewal that went unanswered
	 */
	Mono<Boolean> extend(Duration leaseTime);

	/**
	 * Releases the lock if still owned (owner-checked: never a lock anyone else holds).
	 * Idempotent; nothing happens until it is subscribed to.
	 * @return completes when released; fails with {@link LockLostException} when the lock
	 * had been lost before this release
	 */
	Mono<Void> release();

	/**
	 * {@link #release()}, keeping the lock until it has been held for {@code minHoldTime}
	 * (it then expires by itself, as {@link LockHandle#close(Duration)}).
	 * @param minHoldTime how long the lock is held at least, counted from its acquisition
	 * @return as {@link #release()}
	 */
	Mono<Void> release(Duration minHoldTime);

}
