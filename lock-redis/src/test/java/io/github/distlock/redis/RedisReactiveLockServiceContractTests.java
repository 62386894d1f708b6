package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.core.ReactiveLockEngine;
import io.github.distlock.core.ReactiveLockServiceContractTests;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The {@link io.github.distlock.ReactiveLockService} contract on
 * {@link io.github.distlock.core.ReactiveLockEngine}s over the Redis store, each with its
 * own connection factory, on one real {@code redis-server}: through Lettuce's
 * asynchronous API on the shared connection, and ({@link Unshared}) with the blocking
 * template on threads of the engine's own.
 */
class RedisReactiveLockServiceContractTests extends ReactiveLockServiceContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Override
	protected ReactiveLockEngine createService(Duration leaseTime) {
		return RedisEngines.reactive(new StringRedisTemplate(this.clients.newConnectionFactory()),
				RedisLockSettings.defaults().withLeaseTime(leaseTime));
	}

	@AfterEach
	void closeClients() {
		this.clients.close();
	}

	/**
	 * The same contract on factories that do not share their native connection: the
	 * store's blocking methods, offloaded.
	 */
	@Nested
	class Unshared extends ReactiveLockServiceContractTests {

		@Override
		protected ReactiveLockEngine createService(Duration leaseTime) {
			LettuceConnectionFactory factory = RedisReactiveLockServiceContractTests.this.clients
				.newConnectionFactory();
			factory.setShareNativeConnection(false);
			return RedisEngines.reactive(new StringRedisTemplate(factory),
					RedisLockSettings.defaults().withLeaseTime(leaseTime));
		}

	}

}
