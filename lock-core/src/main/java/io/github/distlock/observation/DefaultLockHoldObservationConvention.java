package io.github.distlock.observation;

import io.github.distlock.observation.LockObservationDocumentation.HighCardinalityKeyNames;
import io.github.distlock.observation.LockObservationDocumentation.LowCardinalityKeyNames;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The default {@link LockHoldObservationConvention}: observation {@code distlock.hold},
 * tagged with the lock name, the outcome ({@code released}, {@code lost}; {@code held} on
 * the long task timer of holds in progress) and the exception.
 */
public class DefaultLockHoldObservationConvention implements LockHoldObservationConvention {

	/** The name of the observation and of the timer it produces. */
	public static final String NAME = "distlock.hold";

	private static final KeyValue EXCEPTION_NONE = KeyValue.of(LowCardinalityKeyNames.EXCEPTION, KeyValue.NONE_VALUE);

	private static final KeyValue OUTCOME_HELD = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "held");

	private static final KeyValue OUTCOME_RELEASED = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "released");

	private static final KeyValue OUTCOME_LOST = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "lost");

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(LockHoldObservationContext context) {
		return "hold " + LockNames.of(context.getLockName(), context.getLockId());
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockHoldObservationContext context) {
		return KeyValues.of(name(context), outcome(context), exception(context));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LockHoldObservationContext context) {
		return KeyValues.of(lockId(context), fencingToken(context));
	}

	protected KeyValue name(LockHoldObservationContext context) {
		return KeyValue.of(LowCardinalityKeyNames.NAME, LockNames.of(context.getLockName(), context.getLockId()));
	}

	protected KeyValue outcome(LockHoldObservationContext context) {
		if (context.isLost()) {
			return OUTCOME_LOST;
		}
		return context.isComplete() ? OUTCOME_RELEASED : OUTCOME_HELD;
	}

	protected KeyValue exception(LockHoldObservationContext context) {
		Throwable error = context.getError();
		return (error != null) ? KeyValue.of(LowCardinalityKeyNames.EXCEPTION, error.getClass().getSimpleName())
				: EXCEPTION_NONE;
	}

	protected KeyValue lockId(LockHoldObservationContext context) {
		return KeyValue.of(HighCardinalityKeyNames.LOCK_ID, context.getLockId());
	}

	protected KeyValue fencingToken(LockHoldObservationContext context) {
		return KeyValue.of(HighCardinalityKeyNames.FENCING_TOKEN, Long.toString(context.getFencingToken()));
	}

}
