package io.github.distlock.benchmarks;

import java.time.Duration;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * Spring Integration's {@link RedisLockRegistry} with its defaults except the lock type:
 * {@code SPIN_LOCK} (the default, retrying every 100 ms) or {@code PUB_SUB_LOCK} (woken
 * by a release message).
 */
final class SpringIntegrationLockClient implements LockClient {

	private final LettuceConnectionFactory factory;

	private final RedisLockRegistry registry;

	private final long waitMillis;

	/**
	 * @param factory a started connection factory, owned (destroyed) by this client from
	 * now on
	 */
	SpringIntegrationLockClient(LettuceConnectionFactory factory, Duration waitTime, RedisLockType type) {
		this.factory = factory;
		this.registry = new RedisLockRegistry(factory, "si");
		this.registry.setRedisLockType(type);
		this.waitMillis = waitTime.toMillis();
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		return LockClient.tryRunLocked(registry.obtain(lockId), waitMillis, action);
	}

	@Override
	public void close() {
		registry.destroy();
		factory.destroy();
	}

}
