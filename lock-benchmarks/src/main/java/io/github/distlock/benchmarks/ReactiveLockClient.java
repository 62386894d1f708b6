package io.github.distlock.benchmarks;

import reactor.core.publisher.Mono;

/**
 * A {@link LockClient} whose lock is taken without a thread waiting for it. The scenarios
 * drive it with subscriptions ({@link Subscriptions}): many callers at once, each one
 * lock cycle after the other, and no thread parked per caller; the blocking clients
 * beside it get one thread per caller, as everywhere else.
 */
interface ReactiveLockClient extends LockClient {

	/**
	 * Acquires {@code lockId} (waiting up to the wait time the instance was created
	 * with), runs {@code action} while holding it, and releases it. Nothing happens until
	 * subscription.
	 * @return {@code true} once the action ran and the lock was released, {@code false}
	 * if the lock was not acquired in time (the action did not run)
	 */
	Mono<Boolean> runLocked(String lockId, Runnable action);

	/**
	 * {@link #runLocked}, blocking the calling thread: for a caller that has one to
	 * spare. The reactive scenarios never call it.
	 */
	@Override
	default boolean tryRunLocked(String lockId, Runnable action) {
		return Boolean.TRUE.equals(runLocked(lockId, action).block());
	}

}
