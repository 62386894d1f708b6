package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.core.LockEngine;
import io.github.distlock.core.LockServiceContractTests;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.github.distlock.core.MultiLockServiceContractTests;
import io.github.distlock.core.SharedLockServiceContractTests;
import org.junit.jupiter.api.Nested;

/**
 * The {@link io.github.distlock.LockService} contract on
 * {@link io.github.distlock.core.LockEngine}s over the Redis store, each with its own
 * connection factory, on one real {@code redis-server}.
 */
class RedisLockServiceContractTests extends LockServiceContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Override
	protected LockEngine createService() {
		return this.clients.newService();
	}

	@AfterEach
	void closeClients() {
		this.clients.close();
	}

	/**
	 * The multi-key contract on the same services.
	 */
	@Nested
	class MultiKey extends MultiLockServiceContractTests {

		@Override
		protected LockEngine createService() {
			return RedisLockServiceContractTests.this.clients.newService();
		}

	}

	/**
	 * The contract of READ holds and permits on the same Redis.
	 */
	@Nested
	class Shared extends SharedLockServiceContractTests {

		@Override
		protected LockEngine createService(Duration leaseTime) {
			return RedisLockServiceContractTests.this.clients
				.newService(RedisLockSettings.defaults().withLeaseTime(leaseTime));
		}

	}

}
