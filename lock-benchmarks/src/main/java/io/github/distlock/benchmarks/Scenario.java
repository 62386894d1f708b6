package io.github.distlock.benchmarks;

/**
 * One measured situation. The runner opens a {@link Trial} per implementation (its own
 * application instances), warms each up, then runs their measured slices in turns, so
 * every implementation sees the same changes of machine load.
 */
interface Scenario {

	/** Does nothing while holding a lock. */
	Runnable NOTHING = () -> {
	};

	String name();

	/** What the table of this scenario shows, one sentence. */
	String description();

	/** Opens the application instances {@code implementation} needs for this scenario. */
	Trial open(LockImplementation implementation, Bench bench);

	/** How many measured slices each trial runs. */
	default int slices(BenchmarkSettings settings) {
		return settings.slices();
	}

	/** What every scenario gets. */
	record Bench(RedisNodes redis, BenchmarkSettings settings, CostMeter meter) {

		LockClient connect(LockImplementation implementation) {
			return implementation.connect(redis, settings.waitTime());
		}
	}

	static void require(boolean acquired, String implementation, String lockId) {
		if (!acquired) {
			throw new IllegalStateException(
					implementation + " did not acquire uncontended lock '" + lockId + "' within the wait time");
		}
	}

}
