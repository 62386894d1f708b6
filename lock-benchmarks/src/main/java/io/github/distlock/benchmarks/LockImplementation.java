package io.github.distlock.benchmarks;

import java.time.Duration;

/**
 * A lock implementation under test.
 *
 * @param name short name used in tables, JSON and {@code --only}
 * @param description what exactly runs, for the results
 * @param connector creates a new application instance
 * @param maxHolders how many holders of one id it admits at once: 1 for a lock, the
 * permits of a semaphore, {@link Integer#MAX_VALUE} for a read lock
 */
record LockImplementation(String name, String description, Connector connector, int maxHolders) {

	/** An exclusive lock: one holder at a time. */
	LockImplementation(String name, String description, Connector connector) {
		this(name, description, connector, 1);
	}

	/** Creates a new, independent application instance of the implementation. */
	LockClient connect(RedisNodes redis, Duration waitTime) {
		return connector.connect(redis, waitTime);
	}

	@FunctionalInterface
	interface Connector {

		LockClient connect(RedisNodes redis, Duration waitTime);

	}
}
