package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.core.LockEngine;
import io.github.distlock.core.SharedLockServiceContractTests;
import io.github.distlock.testsupport.RedisClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The contract of READ holds and permits on a Redis Cluster of 3 masters: a key's shared
 * holds live in its own slot, next to the lock key, so every shared script runs on one
 * node, and the releases of contended keys are announced on the key's shard channel.
 * Needs Redis 7 (skipped with a message otherwise).
 */
class ClusterSharedLockServiceContractTests extends SharedLockServiceContractTests {

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	private final RedisLockClients clients = RedisLockClients.onCluster(redis.nodes());

	@Override
	protected LockEngine createService(Duration leaseTime) {
		return this.clients.newService(RedisLockSettings.defaults().withLeaseTime(leaseTime));
	}

	@AfterEach
	void closeClients() {
		this.clients.close();
	}

}
