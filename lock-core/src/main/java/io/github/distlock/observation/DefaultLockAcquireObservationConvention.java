package io.github.distlock.observation;

import io.github.distlock.OnLockFailure;
import io.github.distlock.observation.LockObservationDocumentation.HighCardinalityKeyNames;
import io.github.distlock.observation.LockObservationDocumentation.LowCardinalityKeyNames;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default {@link LockAcquireObservationConvention}: observation
 * {@code distlock.acquire}, tagged with the lock name, the outcome ({@code acquired},
 * {@code timeout}, {@code skipped}, {@code error}; {@code waiting} on the long task timer
 * of acquisitions in progress) and the exception.
 */
public class DefaultLockAcquireObservationConvention implements LockAcquireObservationConvention {

	/** The name of the observation and of the timer it produces. */
	public static final String NAME = "distlock.acquire";

	private static final KeyValue EXCEPTION_NONE = KeyValue.of(LowCardinalityKeyNames.EXCEPTION, KeyValue.NONE_VALUE);

	private static final KeyValue OUTCOME_WAITING = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "waiting");

	private static final KeyValue OUTCOME_ACQUIRED = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "acquired");

	private static final KeyValue OUTCOME_TIMEOUT = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "timeout");

	private static final KeyValue OUTCOME_SKIPPED = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "skipped");

	private static final KeyValue OUTCOME_ERROR = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "error");

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(LockAcquireObservationContext context) {
		return "lock " + LockNames.of(context.getLockName(), context.getLockId());
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockAcquireObservationContext context) {
		return KeyValues.of(name(context), outcome(context), exception(context));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LockAcquireObservationContext context) {
		return KeyValues.of(lockId(context));
	}

	protected KeyValue name(LockAcquireObservationContext context) {
		return KeyValue.of(LowCardinalityKeyNames.NAME, LockNames.of(context.getLockName(), context.getLockId()));
	}

	protected KeyValue outcome(LockAcquireObservationContext context) {
		if (context.getError() != null) {
			return OUTCOME_ERROR;
		}
		if (!context.isComplete()) {
			return OUTCOME_WAITING;
		}
		if (context.isAcquired()) {
			return OUTCOME_ACQUIRED;
		}
		return (context.getOnFailure() == OnLockFailure.SKIP) ? OUTCOME_SKIPPED : OUTCOME_TIMEOUT;
	}

	protected KeyValue exception(LockAcquireObservationContext context) {
		Throwable error = context.getError();
		return (error != null) ? KeyValue.of(LowCardinalityKeyNames.EXCEPTION, error.getClass().getSimpleName())
				: EXCEPTION_NONE;
	}

	protected KeyValue lockId(LockAcquireObservationContext context) {
		return KeyValue.of(HighCardinalityKeyNames.LOCK_ID, context.getLockId());
	}

}
