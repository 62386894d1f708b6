package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.github.distlock.testsupport.RedisServer;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The lock of the articles the project started from: {@code setIfAbsent} with a timeout,
 * {@code Thread.sleep(100)} between attempts, and a Lua owner-checked delete.
 */
final class NaiveLockClient implements LockClient {

	private static final RedisScript<Long> RELEASE = RedisScript
		.of("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0", Long.class);

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final long RETRY_MILLIS = 100;

	private final LettuceConnectionFactory factory;

	private final StringRedisTemplate redis;

	private final long waitNanos;

	NaiveLockClient(RedisServer server, Duration waitTime) {
		this.factory = LettuceFactories.started(server);
		this.redis = new StringRedisTemplate(factory);
		this.waitNanos = waitTime.toNanos();
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		String key = "naive:" + lockId;
		String token = UUID.randomUUID().toString();
		long start = System.nanoTime();
		while (!Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(key, token, LEASE))) {
			if (System.nanoTime() - start > waitNanos) {
				return false;
			}
			try {
				Thread.sleep(RETRY_MILLIS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		try {
			action.run();
		}
		finally {
			redis.execute(RELEASE, List.of(key), token);
		}
		return true;
	}

	@Override
	public void close() {
		factory.destroy();
	}

}
