package io.github.distlock.core;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Observes acquisitions and holds of a {@link LockEngine}. With the no-op registry (no
 * Micrometer configured) it does nothing but one check per acquisition.
 * <p>
 * Observation code (the user's conventions and handlers included) can throw at any step;
 * such a failure is logged and swallowed here, never propagated, because after the store
 * returned a held lock an exception would lose it (still renewed in the store, known to
 * nobody), and at release it would skip the clean-up.
 */
final class LockObserver {

	private static final Log logger = LogFactory.getLog(LockObserver.class);

	private static final LockAcquireObservationConvention DEFAULT_ACQUIRE_CONVENTION = new DefaultLockAcquireObservationConvention();

	private static final LockHoldObservationConvention DEFAULT_HOLD_CONVENTION = new DefaultLockHoldObservationConvention();

	private final ObservationRegistry registry;

	private final @Nullable LockAcquireObservationConvention acquireConvention;

	private final @Nullable LockHoldObservationConvention holdConvention;

	private final Set<Failure> reported = ConcurrentHashMap.newKeySet();

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
	 * Whether nothing is observed (the no-op registry, or one without handlers): then
	 * {@link #acquire} only runs the acquisition, and callers may run it themselves.
	 */
	boolean isNoop() {
		return this.registry.isNoop();
	}

	/**
	 * Runs {@code acquisition} inside an acquire observation and starts the hold
	 * observation of the lock it returns. What the acquisition throws propagates; what
	 * observation code throws (conventions, handlers, scope changes) is logged and never
	 * changes the outcome, so a lock acquired in the store is always returned to its
	 * caller.
	 */
	@Nullable HeldLock acquire(String lockId, @Nullable String lockName, OnLockFailure onFailure,
			Supplier<@Nullable HeldLock> acquisition) {
		if (isNoop()) {
			return acquisition.get();
		}
		LockAcquireObservationContext context = new LockAcquireObservationContext(lockId, lockName, onFailure);
		Observation observation = guarded(Failure.ACQUIRE_START, () -> LockObservationDocumentation.LOCK_ACQUIRE
			.observation(this.acquireConvention, DEFAULT_ACQUIRE_CONVENTION, () -> context, this.registry));
		if (observation == null) {
			return acquisition.get();
		}
		// Stopped even if a handler failed to start it: the handlers that did start get
		// their stop.
		guardedRun(Failure.ACQUIRE_START, observation::start);
		HeldLock held;
		// In scope while waiting: store commands observed meanwhile become its children.
		Observation.Scope scope = guarded(Failure.ACQUIRE_SCOPE, observation::openScope);
		try {
			held = acquisition.get();
		}
		catch (Throwable ex) {
			closeScope(scope);
			guardedRun(Failure.ACQUIRE_STOP, () -> {
				context.setComplete(true);
				observation.error(ex);
				observation.stop();
			});
			throw ex;
		}
		closeScope(scope);
		guardedRun(Failure.ACQUIRE_STOP, () -> {
			context.setComplete(true);
			if (held != null) {
				context.setAcquired(held.knownFencingToken());
			}
			observation.stop();
		});
		if (held != null) {
			// Started after the acquire scope closed: a sibling of the acquisition, not
			// its child.
			LockHoldObservationContext holdContext = new LockHoldObservationContext(lockId, lockName,
					held.knownFencingToken());
			Observation hold = guarded(Failure.HOLD_START, () -> LockObservationDocumentation.LOCK_HOLD
				.observation(this.holdConvention, DEFAULT_HOLD_CONVENTION, () -> holdContext, this.registry));
			if (hold != null) {
				held.holdObservation = hold;
				guardedRun(Failure.HOLD_START, hold::start);
			}
		}
		return held;
	}

	/**
	 * Ends the hold observation of {@code held}, if any. Never throws: what observation
	 * code throws is logged.
	 * @param failure what the release threw, if anything
	 */
	void released(HeldLock held, @Nullable RuntimeException failure) {
		Observation observation = held.holdObservation;
		if (observation == null) {
			return;
		}
		held.holdObservation = null;
		guardedRun(Failure.HOLD_STOP, () -> {
			if (observation.getContext() instanceof LockHoldObservationContext context) {
				context.setComplete(true);
				context.setLost(failure instanceof LockLostException);
			}
			if (failure != null) {
				observation.error(failure);
			}
			observation.stop();
		});
	}

	private void closeScope(Observation.@Nullable Scope scope) {
		if (scope != null) {
			guardedRun(Failure.ACQUIRE_SCOPE, scope::close);
		}
	}

	private void guardedRun(Failure kind, Runnable observationCode) {
		guarded(kind, () -> {
			observationCode.run();
			return null;
		});
	}

	/**
	 * Runs observation code, which includes the user's conventions and handlers. A
	 * failure is logged, at {@code WARN} the first time per kind and at {@code DEBUG}
	 * after that, so a broken convention neither costs a lock nor floods the log.
	 * @return what {@code observationCode} returned, or {@code null} if it threw
	 */
	private <T> @Nullable T guarded(Failure kind, Supplier<T> observationCode) {
		try {
			return observationCode.get();
		}
		catch (RuntimeException ex) {
			if (this.reported.add(kind)) {
				logger.warn("Observation code failed " + kind.when + "; the lock is unaffected (logged once, then at"
						+ " DEBUG): " + ex, ex);
			}
			else if (logger.isDebugEnabled()) {
				logger.debug("Observation code failed " + kind.when + "; the lock is unaffected", ex);
			}
			return null;
		}
	}

	/** Where observation code can fail, each reported at {@code WARN} once. */
	private enum Failure {

		ACQUIRE_START("starting the acquire observation"),

		ACQUIRE_SCOPE("opening or closing the acquire observation's scope"),

		ACQUIRE_STOP("stopping the acquire observation"),

		HOLD_START("starting the hold observation"),

		HOLD_STOP("stopping the hold observation");

		private final String when;

		Failure(String when) {
			this.when = when;
		}

	}

}
