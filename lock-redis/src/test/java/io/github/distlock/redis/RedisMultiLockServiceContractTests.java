package io.github.distlock.redis;

import io.github.distlock.core.LockEngine;
import io.github.distlock.core.MultiLockServiceContractTests;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The multi-key contract on {@link RedisLockService}s, each with its own connection
 * factory, on one real {@code redis-server}.
 */
class RedisMultiLockServiceContractTests extends MultiLockServiceContractTests {

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

}
