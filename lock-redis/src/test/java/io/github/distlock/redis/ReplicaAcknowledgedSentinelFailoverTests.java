package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisSentinelGroup;
import io.github.distlock.testsupport.RedisSentinelGroupExtension;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link ReplicaAcknowledgedFailoverTests} with Sentinel (a master, 2 replicas, 3
 * Sentinels): replication to both replicas is frozen, and the Sentinels promote a replica
 * that never saw the lock. After each kill the store's own connections follow the new
 * master too.
 */
class ReplicaAcknowledgedSentinelFailoverTests extends ReplicaAcknowledgedFailoverTests {

	@RegisterExtension
	static final RedisSentinelGroupExtension sentinel = new RedisSentinelGroupExtension();

	@Override
	String topology() {
		return "Sentinel";
	}

	@Override
	int iterations() {
		return 2;
	}

	@Override
	RedisServer masterOf(String lockId) {
		return sentinel.group().master();
	}

	@Override
	void loseUnreplicatedWrites(RedisServer master, Runnable writes) {
		requireCurrentMaster(master);
		sentinel.group().loseUnreplicatedWrites(writes);
	}

	@Override
	void killMaster(RedisServer master) {
		requireCurrentMaster(master);
		sentinel.group().killMaster();
	}

	@Override
	void restartAsReplica(RedisServer master) {
		sentinel.group().restartAsReplica(master);
	}

	/**
	 * A's connections reconnect to the master Sentinel names now; its remaining replica
	 * acknowledges once it has synchronised with it.
	 */
	@Override
	void afterKill(LockEngine instanceA, int iteration) {
		String next = "after-failover:" + iteration;
		LockHandle again = await().atMost(Duration.ofSeconds(30))
			.ignoreExceptionsInstanceOf(LockNotAcquiredException.class)
			.until(() -> instanceA.lock(next, Duration.ZERO), (handle) -> handle != null);
		assertThat(sentinel.group().master().command("EXISTS", key(next))).isEqualTo("1");
		again.close();
	}

	@Override
	LettuceConnectionFactory newConnectionFactory() {
		RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(sentinel.masterName());
		for (String node : sentinel.sentinelNodes().split(",")) {
			int colon = node.lastIndexOf(':');
			configuration.sentinel(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1)));
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(1)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static void requireCurrentMaster(RedisServer master) {
		RedisSentinelGroup group = sentinel.group();
		if (!group.master().equals(master)) {
			throw new IllegalStateException("node " + master.port() + " is not the master any longer");
		}
	}

}
