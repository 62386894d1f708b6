package io.github.distlock.redis;

import java.util.List;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis round trips of the lock, one method per script, on a {@link StringRedisTemplate}.
 * Knows keys and arguments, nothing about local state.
 */
final class RedisLockCommands {

	private final StringRedisTemplate redis;

	private final String releaseChannel;

	private final String fencingRetentionMillis;

	RedisLockCommands(StringRedisTemplate redis, String releaseChannel, long fencingRetentionMillis) {
		this.redis = redis;
		this.releaseChannel = releaseChannel;
		this.fencingRetentionMillis = Long.toString(fencingRetentionMillis);
	}

	/**
	 * @return the fencing token (&gt; 0), or {@code -1 - remaining lease ms} of the holder
	 */
	long acquire(String key, String owner, long leaseMillis) {
		return run(this.redis.execute(LockScripts.ACQUIRE, List.of(key, LockKeys.fenceKey(key)), owner,
				Long.toString(leaseMillis), this.fencingRetentionMillis));
	}

	boolean release(String key, String owner) {
		return run(this.redis.execute(LockScripts.RELEASE, List.of(key), owner, this.releaseChannel)) == 1;
	}

	/**
	 * @return the new holder's fencing token (&gt; 0), -1 if released instead, 0 if not owned
	 */
	long handOver(String key, String owner, String newOwner, long newLeaseMillis, boolean mayStayLocal) {
		return run(this.redis.execute(LockScripts.HAND_OVER, List.of(key, LockKeys.fenceKey(key)), owner, newOwner,
				this.fencingRetentionMillis, Long.toString(newLeaseMillis), mayStayLocal ? "1" : "0",
				this.releaseChannel));
	}

	boolean expire(String key, String owner, long leaseMillis) {
		return run(this.redis.execute(LockScripts.EXPIRE, List.of(key), owner, Long.toString(leaseMillis))) == 1;
	}

	boolean exists(String key) {
		return Boolean.TRUE.equals(this.redis.hasKey(key));
	}

	/**
	 * @return remaining lease in ms, -1 for a key without expiry, -2 if absent
	 */
	long remainingMillis(String key) {
		Long ttl = this.redis.getExpire(key, java.util.concurrent.TimeUnit.MILLISECONDS);
		return (ttl != null) ? ttl : -2;
	}

	private static long run(Long reply) {
		if (reply == null) {
			// Only in a pipeline or transaction, which the lock never opens.
			throw new IllegalStateException("Redis returned no reply to a lock script");
		}
		return reply;
	}

}
