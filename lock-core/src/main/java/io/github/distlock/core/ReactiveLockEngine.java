package io.github.distlock.core;

import io.github.distlock.LockInspection;
import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.util.function.Function;

import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.ReactiveLockContext;
import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.store.LockStore;
import io.github.distlock.support.DurationText;
import io.github.distlock.support.LogSafe;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

/**
 * The {@link ReactiveLockService} over any {@link LockStore}: the store's
 * {@linkplain LockStore#async asynchronous operations}, acquisitions that wait without a
 * thread ({@link AsyncAcquisition}), holds renewed by a timer ({@link AsyncHold}).
 * <p>
 * It shares the store with the application's {@link LockEngine} but nothing else: its
 * holds are exclusive (WRITE) locks of the default mode, owned by acquisitions, and the
 * store keeps them apart from the engine's as it keeps instances apart. Its release
 * subscription is its own. Its holds are not among the engine's
 * {@link LockInspection#heldLocks() held locks}, and its acquisitions are not observed
 * with Micrometer.
 */
public class ReactiveLockEngine implements ReactiveLockService, ManagedLockService, AutoCloseable {

	private final AsyncEngine engine;

	private final long leaseNanos;

	/** An engine on {@link EngineRuntime#system()}, the JVM's clock and threads. */
	public ReactiveLockEngine(LockStore store, Duration leaseTime) {
		this(store, leaseTime, EngineRuntime.system());
	}

	/**
	 * @param store where the locks live
	 * @param leaseTime lease of auto-renewed locks, renewed about every third of it; at
	 * least 3 ms
	 * @param runtime the clock, threads and randomness the engine runs on
	 */
	public ReactiveLockEngine(LockStore store, Duration leaseTime, EngineRuntime runtime) {
		if (leaseTime == null || leaseTime.compareTo(Duration.ofMillis(3)) < 0) {
			throw new IllegalArgumentException("leaseTime must be at least 3ms, but was " + DurationText.of(leaseTime));
		}
		this.leaseNanos = leaseTime.toNanos();
		this.engine = new AsyncEngine(store, runtime);
	}

	@Override
	public Mono<ReactiveLockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
		LockArguments.check(lockId, waitTime, leaseTime);
		return acquisition(lockId, waitTime, leaseTime, null)
			// A handle delivered as its subscriber cancelled reaches nobody: released.
			.doOnDiscard(ReactiveEngineHandle.class, ReactiveEngineHandle::releaseQuietly);
	}

	/**
	 * One acquisition, its handle delivered on Reactor's parallel scheduler, never on the
	 * store's I/O thread or the engine's timer: what the subscriber does next cannot hold
	 * up the replies and renewals of other locks. With a {@code scope}, the scope takes
	 * the lock before it is delivered.
	 */
	private Mono<ReactiveLockHandle> acquisition(String lockId, Duration waitTime, @Nullable Duration leaseTime,
			@Nullable LockScope scope) {
		long lease = (leaseTime != null) ? leaseTime.toNanos() : this.leaseNanos;
		return Mono.create((sink) -> {
			if (this.engine.isClosed()) {
				sink.error(shutDown(lockId));
				return;
			}
			AsyncAcquisition acquisition = new AsyncAcquisition(this.engine, lockId, LockArguments.waitNanos(waitTime),
					lease, leaseTime == null);
			sink.onCancel(acquisition::cancel);
			acquisition.result.whenComplete((hold, failure) -> {
				ReactiveEngineHandle handle = (hold != null) ? new ReactiveEngineHandle(this, hold) : null;
				boolean taken = handle == null || scope == null || scope.hold(handle);
				Schedulers.parallel().schedule(() -> {
					if (failure != null) {
						sink.error(failure);
					}
					else if (handle == null || !taken) {
						sink.success();
					}
					else {
						sink.success(handle);
					}
				});
			});
			acquisition.start();
		});
	}

	@Override
	public <T> Mono<T> executeLocked(String lockId, Duration waitTime, Mono<T> action) {
		return executeLocked(lockId, waitTime, null, Duration.ZERO, Flux.from(action)).singleOrEmpty();
	}

	@Override
	public <T> Flux<T> executeLocked(String lockId, Duration waitTime, Flux<T> action) {
		return executeLocked(lockId, waitTime, null, Duration.ZERO, action);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The lock is taken into a {@link LockScope} made for the subscription, so that a
	 * cancellation at any moment releases it.
	 */
	@Override
	public <T> Flux<T> executeLocked(String lockId, Duration waitTime, @Nullable Duration leaseTime,
			Duration minHoldTime, Flux<T> action) {
		LockArguments.check(lockId, waitTime, leaseTime);
		if (minHoldTime == null || minHoldTime.isNegative()) {
			throw new IllegalArgumentException("minHoldTime of lock '" + LogSafe.text(lockId)
					+ "' must not be null or negative, but was " + DurationText.of(minHoldTime));
		}
		return Flux.deferContextual((context) -> {
			ReactiveEngineHandle enclosing = enclosing(context, lockId);
			if (enclosing != null) {
				return enclosing.isHeld() ? action : Flux.error(lostBeforeReentry(enclosing));
			}
			LockScope lockScope = new LockScope();
			Function<LockScope, Flux<T>> locked = (scope) -> acquisition(lockId, waitTime, leaseTime, scope)
				.switchIfEmpty(Mono.error(() -> notAcquired(lockId, waitTime)))
				.flatMapMany((handle) -> action.contextWrite((inner) -> ReactiveLockContext.with(inner, handle)));
			// A loss the release found is signalled as LockLostException (after a
			// success) or
			// suppressed in the failure, not wrapped by Reactor's clean-up error.
			return Flux
				.usingWhen(Mono.just(lockScope), locked, (scope) -> scope.close(minHoldTime),
						(scope, failure) -> scope.close(minHoldTime), (scope) -> scope.close(minHoldTime))
				.concatWith(Mono.defer(lockScope::lossAfterSuccess))
				.onErrorMap(lockScope::withLoss);
		});
	}

	private static LockNotAcquiredException notAcquired(String lockId, Duration waitTime) {
		return new LockNotAcquiredException(lockId,
				"Lock '" + LogSafe.text(lockId) + "' was not acquired within " + DurationText.of(waitTime));
	}

	/** The hold of {@code lockId} of this service around the subscriber, if any. */
	private @Nullable ReactiveEngineHandle enclosing(ContextView context, String lockId) {
		return (ReactiveEngineHandle) ReactiveLockContext
			.find(context,
					(handle) -> handle instanceof ReactiveEngineHandle held && held.service == this
							&& held.lockId().equals(lockId))
			.orElse(null);
	}

	private static LockLostException lostBeforeReentry(ReactiveEngineHandle handle) {
		return new LockLostException(handle.lockId(), "Lock '" + LogSafe.text(handle.lockId())
				+ "' was lost while this pipeline held it; it cannot be re-entered");
	}

	private static LockNotAcquiredException shutDown(String lockId) {
		return new LockNotAcquiredException(lockId,
				"Lock '" + LogSafe.text(lockId) + "' was not acquired: the lock service shut down");
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * One store call on Reactor's bounded elastic scheduler (the store's
	 * {@code remainingLeaseMillis} blocks).
	 */
	@Override
	public Mono<Boolean> isLocked(String lockId) {
		LockArguments.checkLockId(lockId);
		return Mono.fromCallable(() -> this.engine.remainingLeaseMillis(lockId) >= 0)
			.subscribeOn(Schedulers.boundedElastic());
	}

	@Override
	public void setLockLostListener(LockLostListener listener) {
		this.engine.setLockLostListener(listener);
	}

	/**
	 * Locks found lost since startup.
	 * @return the count
	 */
	public long locksLost() {
		return this.engine.locksLost();
	}

	/**
	 * Locks held through this service now.
	 * @return the count
	 */
	public int heldLockCount() {
		return this.engine.holds.size();
	}

	/**
	 * Ends the waits (they fail with {@link LockNotAcquiredException}), releases every
	 * lock held through this service (owner-checked; their holders get
	 * {@link LockLostException} when they release), waiting at most
	 * {@link EngineShutdown#WAIT} for the store, and stops the engine's threads.
	 * Idempotent.
	 */
	@Override
	public void close() {
		if (!this.engine.isClosed()) {
			this.engine.close(EngineShutdown.WAIT);
		}
	}

	/** {@link #close()}. */
	@Override
	public void destroy() {
		close();
	}

}
