package io.github.distlock.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import reactor.core.publisher.Mono;

/**
 * The lock of one locked subscription of the {@link ReactiveLockEngine}, made before its
 * acquisition starts and closed when the subscription ends, however the two cross: a lock
 * that arrives after the scope closed (its subscriber cancelled as the lock was granted)
 * is released at once, and a scope that closes after the lock arrived releases it,
 * whether or not the handle reached the subscriber. So a cancellation never leaves a lock
 * held behind.
 */
final class LockScope {

	private static final Object CLOSED = new Object();

	/** {@code null}, then the handle, and {@link #CLOSED} at last. */
	private final AtomicReference<Object> state = new AtomicReference<>();

	/**
	 * The lock arrived.
	 * @return {@code false} if the scope had closed: the lock was released
	 */
	boolean hold(ReactiveEngineHandle handle) {
		if (this.state.compareAndSet(null, handle)) {
			return true;
		}
		handle.releaseQuietly();
		return false;
	}

	/**
	 * Closes the scope, releasing its lock if it has one.
	 * @param minHoldTime how long the lock is held at least
	 * @return the release; fails with {@link io.github.distlock.LockLostException} when
	 * the lock had been lost
	 */
	Mono<Void> close(Duration minHoldTime) {
		Object held = this.state.getAndSet(CLOSED);
		return (held instanceof ReactiveEngineHandle handle) ? handle.release(minHoldTime) : Mono.empty();
	}

}
