package io.github.distlock.redis;

import io.github.distlock.core.LockEngine;
import io.github.distlock.core.MultiLockServiceContractTests;
import io.github.distlock.testsupport.RedisClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The multi-key contract on a Redis Cluster of 3 masters: each id of a multi-key lock
 * keeps its keys in its own slot, so the ids of one acquisition are spread over the
 * masters and taken one after the other in the global order, never by one script across
 * slots. Needs Redis 7 (skipped with a message otherwise).
 */
class ClusterMultiLockServiceContractTests extends MultiLockServiceContractTests {

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	private final RedisLockClients clients = RedisLockClients.onCluster(redis.nodes());

	@Override
	protected LockEngine createService() {
		return this.clients.newService();
	}

	@AfterEach
	void closeClients() {
		this.clients.close();
	}

}
