package io.github.distlock.benchmarks;

import java.time.Duration;

/**
 * A lock implementation under test.
 *
 * @param name short name used in tables, JSON and {@code --only}
 * @param description what exactly runs, for the results
 * @param connector creates a new application instance
 */
record LockImplementation(String name, String description, Connector connector) {

	/** Creates a new, independent application instance of the implementation. */
	LockClient connect(RedisNodes redis, Duration waitTime) {
		return connector.connect(redis, waitTime);
	}

	@FunctionalInterface
	interface Connector {

		LockClient connect(RedisNodes redis, Duration waitTime);

	}
}
