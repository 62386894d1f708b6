package io.github.distlock.core;

import java.time.Duration;

import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.support.DurationText;
import io.github.distlock.support.LogSafe;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The handle of an {@link AsyncHold}. Its signals are delivered on Reactor's parallel
 * scheduler, never on the store's I/O thread or the engine's timer, so that what a
 * subscriber does next cannot hold up the replies and renewals of other locks.
 */
final class ReactiveEngineHandle implements ReactiveLockHandle {

	final ReactiveLockEngine service;

	final AsyncHold hold;

	ReactiveEngineHandle(ReactiveLockEngine service, AsyncHold hold) {
		this.service = service;
		this.hold = hold;
	}

	@Override
	public String lockId() {
		return this.hold.lockId;
	}

	@Override
	public long fencingToken() {
		return this.hold.fencingToken;
	}

	@Override
	public boolean isHeld() {
		return this.hold.isHeld();
	}

	@Override
	public Mono<Boolean> extend(Duration leaseTime) {
		Duration least = Duration.ofMillis(this.hold.autoRenewed ? 3 : 1);
		if (leaseTime == null || leaseTime.compareTo(least) < 0) {
			return Mono.error(new IllegalArgumentException("leaseTime to extend lock '" + LogSafe.text(lockId())
					+ "' with must be at least " + least.toMillis() + "ms, but was " + DurationText.of(leaseTime)));
		}
		return Mono.defer(() -> Mono.fromCompletionStage(this.hold.extend(leaseTime.toNanos())))
			.publishOn(Schedulers.parallel());
	}

	@Override
	public Mono<Void> release() {
		return release(Duration.ZERO);
	}

	@Override
	public Mono<Void> release(Duration minHoldTime) {
		if (minHoldTime == null || minHoldTime.isNegative()) {
			return Mono.error(new IllegalArgumentException("minHoldTime of lock '" + LogSafe.text(lockId())
					+ "' must not be null or negative, but was " + DurationText.of(minHoldTime)));
		}
		return Mono.defer(() -> Mono.fromCompletionStage(this.hold.release(minHoldTime.toNanos())))
			.publishOn(Schedulers.parallel());
	}

	/** For a handle nobody received (its subscriber cancelled as it was delivered). */
	void releaseQuietly() {
		this.hold.releaseQuietly();
	}

	@Override
	public String toString() {
		return "ReactiveLockHandle[" + LogSafe.text(lockId()) + ", token " + fencingToken() + ", "
				+ (isHeld() ? "held" : "not held") + "]";
	}

}
