package io.github.distlock.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockLostException;
import org.jspecify.annotations.Nullable;
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

	/** The loss the release found. */
	private volatile @Nullable LockLostException lost;

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
	 * Closes the scope, releasing its lock if it has one. A lock found lost is kept for
	 * {@link #withLoss}, not signalled here: Reactor would wrap it.
	 * @param minHoldTime how long the lock is held at least
	 * @return the release
	 */
	Mono<Void> close(Duration minHoldTime) {
		Object held = this.state.getAndSet(CLOSED);
		if (!(held instanceof ReactiveEngineHandle handle)) {
			return Mono.empty();
		}
		return handle.release(minHoldTime).onErrorResume(LockLostException.class, (lost) -> {
			this.lost = lost;
			return Mono.empty();
		});
	}

	/**
	 * After a result that completed: the loss its release found, if any.
	 * @return empty, or {@link LockLostException}
	 */
	<T> Mono<T> lossAfterSuccess() {
		LockLostException found = this.lost;
		return (found != null) ? Mono.error(found) : Mono.empty();
	}

	/**
	 * After a result that failed: the failure, with the loss its release found, if any,
	 * as a suppressed exception (as a blocking holder gets it).
	 */
	Throwable withLoss(Throwable failure) {
		LockLostException found = this.lost;
		if (found != null && found != failure) {
			failure.addSuppressed(found);
		}
		return failure;
	}

}
