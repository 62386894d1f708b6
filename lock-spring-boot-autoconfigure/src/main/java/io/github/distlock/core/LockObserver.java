package io.github.distlock.core;

import java.util.function.Supplier;

import io.github.distlock.LockLostException;
import io.github.distlock.OnLockFailure;
import io.github.distlock.observation.DefaultLockAcquireObservationConvention;
import io.github.distlock.observation.DefaultLockHoldObservationConvention;
import io.github.distlock.observation.LockAcquireObservationContext;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationContext;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.observation.LockObservationDocumentation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes acquisitions and holds of a {@link LockEngine}. With the no-op registry (no
 * Micrometer configured) it does nothing but one check per acquisition.
 */
final class LockObserver {

	private static final LockAcquireObservationConvention DEFAULT_ACQUIRE_CONVENTION =
			new DefaultLockAcquireObservationConvention();

	private static final LockHoldObservationConvention DEFAULT_HOLD_CONVENTION =
			new DefaultLockHoldObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable LockAcquireObservationConvention acquireConvention;

	private final @Nullable LockHoldObservationConvention holdConvention;

	LockObserver(ObservationRegistry registry, @Nullable LockAcquireObservationConvention acquireConvention,
			@Nullable LockHoldObservationConvention holdConvention) {
		this.registry = registry;
		this.acquireConvention = acquireConvention;
		this.holdConvention = holdConvention;
	}

	static LockObserver none() {
		return new LockObserver(ObservationRegistry.NOOP, null, null);
	}

	/**
	 * Runs {@code acquisition} inside an acquire observation and starts the hold observation of
	 * the lock it returns.
	 */
	@Nullable HeldLock acquire(String lockId, @Nullable String lockName, OnLockFailure onFailure,
			Supplier<@Nullable HeldLock> acquisition) {
		if (this.registry.isNoop()) {
			return acquisition.get();
		}
		LockAcquireObservationContext context = new LockAcquireObservationContext(lockId, lockName, onFailure);
		Observation observation = LockObservationDocumentation.LOCK_ACQUIRE
			.observation(this.acquireConvention, DEFAULT_ACQUIRE_CONVENTION, () -> context, this.registry)
			.start();
		HeldLock held;
		try {
			// In scope while waiting: Redis commands observed meanwhile become its children.
			held = observation.scoped(acquisition);
		}
		catch (RuntimeException ex) {
			context.setComplete(true);
			observation.error(ex);
			observation.stop();
			throw ex;
		}
		context.setComplete(true);
		if (held != null) {
			context.setAcquired(held.fencingToken);
		}
		observation.stop();
		if (held != null) {
			// Started after the acquire scope closed: a sibling of the acquisition, not its child.
			LockHoldObservationContext holdContext = new LockHoldObservationContext(lockId, lockName,
					held.fencingToken);
			held.holdObservation = LockObservationDocumentation.LOCK_HOLD
				.observation(this.holdConvention, DEFAULT_HOLD_CONVENTION, () -> holdContext, this.registry)
				.start();
		}
		return held;
	}

	/**
	 * Ends the hold observation of {@code held}, if any.
	 * @param failure what the release threw, if anything
	 */
	void released(HeldLock held, @Nullable RuntimeException failure) {
		Observation observation = held.holdObservation;
		if (observation == null) {
			return;
		}
		held.holdObservation = null;
		if (observation.getContext() instanceof LockHoldObservationContext context) {
			context.setComplete(true);
			context.setLost(failure instanceof LockLostException);
		}
		if (failure != null) {
			observation.error(failure);
		}
		observation.stop();
	}

}
