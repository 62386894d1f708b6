package io.github.distlock.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observations of distributed locks and their key values.
 * <p>
 * Only low-cardinality key values become meter tags: the static lock name, the outcome
 * and the exception. The lock id (which contains the evaluated key, e.g. an order id) is
 * high-cardinality and appears only in traces.
 */
public enum LockObservationDocumentation implements ObservationDocumentation {

	/**
	 * Acquiring a lock: from the call until the lock is acquired, given up on or failed.
	 * Its duration is the time spent waiting.
	 */
	LOCK_ACQUIRE {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultLockAcquireObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeyNames.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return new KeyName[] { HighCardinalityKeyNames.LOCK_ID };
		}

	},

	/**
	 * Holding a lock: from its acquisition until its holder releases it. Reentrant
	 * acquisitions are part of the outermost hold and not observed separately.
	 */
	LOCK_HOLD {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultLockHoldObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeyNames.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HighCardinalityKeyNames.values();
		}

	};

	/**
	 * Key values that become meter tags.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/**
		 * Static name of the lock: the {@code @DistributedLock} name, or for programmatic
		 * calls the lock id's text before its first {@code ':'} ({@code unnamed} if it
		 * has none).
		 */
		NAME {
			@Override
			public String asString() {
				return "name";
			}
		},

		/**
		 * Outcome: {@code acquired}, {@code timeout}, {@code skipped} or {@code error}
		 * when acquiring; {@code released} or {@code lost} when holding. Observations in
		 * progress (long task timers) have {@code waiting} and {@code held}.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		/**
		 * Simple class name of the exception that ended the observation, or {@code none}.
		 */
		EXCEPTION {
			@Override
			public String asString() {
				return "exception";
			}
		}

	}

	/**
	 * Key values for traces only, never tags.
	 */
	public enum HighCardinalityKeyNames implements KeyName {

		/**
		 * The lock id: name, or name and evaluated key.
		 */
		LOCK_ID {
			@Override
			public String asString() {
				return "lock.id";
			}
		},

		/**
		 * The fencing token of the hold.
		 */
		FENCING_TOKEN {
			@Override
			public String asString() {
				return "lock.fencing-token";
			}
		}

	}

}
