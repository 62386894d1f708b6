package io.github.distlock.redis;

import java.time.Duration;

/**
 * Settings of a {@link RedisLockService}.
 *
 * @param keyPrefix prefix of every Redis key and channel the lock writes; no braces
 * @param leaseTime lease of auto-renewed locks, renewed about every third of it
 * @param fencingRetention how long the last fencing token of a lock is kept after its
 * last acquisition; tokens stay increasing beyond it as long as the Redis server clock
 * does not step back by more than this
 */
public record RedisLockSettings(String keyPrefix, Duration leaseTime, Duration fencingRetention) {

	public RedisLockSettings {
		if (keyPrefix == null) {
			throw new IllegalArgumentException("keyPrefix must not be null");
		}
		requireAtLeastMillis("leaseTime", leaseTime, 3);
		requireAtLeastMillis("fencingRetention", fencingRetention, 1);
	}

	/**
	 * The defaults of the {@code distributed-lock.*} properties.
	 * @return prefix {@code distlock:}, lease 30 s, fencing retention 1 min
	 */
	public static RedisLockSettings defaults() {
		return new RedisLockSettings("distlock:", Duration.ofSeconds(30), Duration.ofMinutes(1));
	}

	public RedisLockSettings withKeyPrefix(String prefix) {
		return new RedisLockSettings(prefix, this.leaseTime, this.fencingRetention);
	}

	public RedisLockSettings withLeaseTime(Duration lease) {
		return new RedisLockSettings(this.keyPrefix, lease, this.fencingRetention);
	}

	public RedisLockSettings withFencingRetention(Duration retention) {
		return new RedisLockSettings(this.keyPrefix, this.leaseTime, retention);
	}

	private static void requireAtLeastMillis(String name, Duration value, long millis) {
		if (value == null || value.compareTo(Duration.ofMillis(millis)) < 0) {
			throw new IllegalArgumentException(name + " must be at least " + millis + "ms, but was " + value);
		}
	}

}
