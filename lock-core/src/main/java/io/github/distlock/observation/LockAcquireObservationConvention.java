package io.github.distlock.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * An {@link ObservationConvention} for {@link LockObservationDocumentation#LOCK_ACQUIRE
 * acquiring locks}. Define a bean of this type to replace
 * {@link DefaultLockAcquireObservationConvention}.
 */
public interface LockAcquireObservationConvention extends ObservationConvention<LockAcquireObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LockAcquireObservationContext;
	}

}
