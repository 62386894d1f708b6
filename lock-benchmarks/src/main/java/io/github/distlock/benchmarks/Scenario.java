package io.github.distlock.benchmarks;

import java.util.Map;

import io.github.distlock.testsupport.RedisServer;

/** One measured situation, run once per implementation with fresh application instances. */
interface Scenario {

    /** Does nothing while holding a lock. */
    Runnable NOTHING = () -> {
    };

    String name();

    /** What the table of this scenario shows, one sentence. */
    String description();

    /** Runs the scenario and returns its metrics (names in lowerCamelCase, units in the name). */
    Map<String, Object> run(LockImplementation implementation, Bench bench);

    /** What every scenario gets. */
    record Bench(RedisServer redis, BenchmarkSettings settings, CostMeter meter) {

        LockClient connect(LockImplementation implementation) {
            return implementation.connect(redis, settings.waitTime());
        }
    }

    static void require(boolean acquired, String implementation, String lockId) {
        if (!acquired) {
            throw new IllegalStateException(implementation + " did not acquire uncontended lock '" + lockId
                    + "' within the wait time");
        }
    }
}
