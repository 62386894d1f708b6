package io.github.distlock.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * An {@link ObservationConvention} for {@link LockObservationDocumentation#LOCK_HOLD
 * holding locks}. Define a bean of this type to replace
 * {@link DefaultLockHoldObservationConvention}.
 */
public interface LockHoldObservationConvention extends ObservationConvention<LockHoldObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LockHoldObservationContext;
	}

}
