package io.github.distlock.benchmarks;

import java.time.Duration;

import io.github.distlock.testsupport.RedisServer;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock} with its defaults: no lease given, so its watchdog renews the
 * lock.
 */
final class RedissonLockClient implements LockClient {

	private final RedissonClient redisson;

	private final long waitMillis;

	RedissonLockClient(RedisServer redis, Duration waitTime) {
		Config config = new Config();
		config.useSingleServer().setAddress(redis.uri());
		this.redisson = Redisson.create(config);
		this.waitMillis = waitTime.toMillis();
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		return LockClient.tryRunLocked(redisson.getLock("redisson:" + lockId), waitMillis, action);
	}

	@Override
	public void close() {
		redisson.shutdown();
	}

}
