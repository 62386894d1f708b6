package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.ClusterSlotMigration;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link ReplicaAcknowledgedFailoverTests} on a real Redis Cluster (3 masters, 3
 * replicas): the lock's master is killed and its replica, which never saw the lock, is
 * promoted. And replicated acquisitions follow a slot being migrated and moved.
 */
class ReplicaAcknowledgedClusterFailoverTests extends ReplicaAcknowledgedFailoverTests {

	@RegisterExtension
	static final RedisClusterExtension clusterExtension = new RedisClusterExtension();

	@Override
	String topology() {
		return "cluster";
	}

	@Override
	int iterations() {
		return 3;
	}

	@Override
	RedisServer masterOf(String lockId) {
		return clusterExtension.cluster().masterOf(key(lockId));
	}

	@Override
	void loseUnreplicatedWrites(RedisServer master, Runnable writes) {
		clusterExtension.cluster().loseUnreplicatedWrites(master, writes);
	}

	@Override
	void killMaster(RedisServer master) {
		clusterExtension.cluster().killMaster(master);
	}

	@Override
	void restartAsReplica(RedisServer master) {
		clusterExtension.cluster().restartAsReplica(master);
	}

	@Override
	LettuceConnectionFactory newConnectionFactory() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(List.of(clusterExtension.cluster().nodes().split(","))),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(1)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	@Test
	void acquisitionsFollowAMigratedSlotAndWaitForTheNewMastersReplica() {
		RedisCluster cluster = clusterExtension.cluster();
		LockEngine locks = newService(1);
		// Ids that share one slot, and a master to move it to.
		List<String> ids = idsInOneSlot(3);
		int slot = cluster.keySlot(key(ids.get(0)));
		RedisServer from = cluster.masterOf(key(ids.get(0)));
		RedisServer to = cluster.masters().stream().filter((master) -> master != from).findFirst().orElseThrow();
		// Warms up: the store's connections know the slot on its first master. The
		// follower does nothing else until the slot has moved.
		locks.lock(ids.get(0), Duration.ZERO).close();
		LockEngine follower = newService(1);
		follower.lock(ids.get(0), Duration.ZERO).close();
		ClusterSlotMigration migration = cluster.beginSlotMigration(slot, from, to);
		// Its keys are not on the source, which redirects (ASK) to the target; the store
		// follows with ASKING, and the target, missing some of the script's keys in a
		// slot it is importing, answers TRYAGAIN, as it would to any client: the outcome
		// counts as unknown, and with no wait time left the acquisition fails with it
		// and leaves nothing behind.
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> locks.lock(ids.get(1), Duration.ZERO))
			.withCauseInstanceOf(DataAccessException.class)
			.satisfies((ex) -> assertThat(NestedExceptionUtils.getMostSpecificCause(ex).getMessage())
				.startsWith("TRYAGAIN"));
		assertThat(keysInSlot(from, slot)).doesNotContain(key(ids.get(1)));
		assertThat(keysInSlot(to, slot)).doesNotContain(key(ids.get(1)));
		migration.moveKeys();
		migration.finish();
		// The follower's slot map still names the old master: MOVED, refreshed, tried
		// again.
		long movedBefore = movedReplies(from);
		for (String id : ids) {
			try (LockHandle lock = follower.lock(id, Duration.ZERO)) {
				assertThat(keysInSlot(to, slot)).contains(key(id));
				// A replica redirects key commands, not CLUSTER GETKEYSINSLOT.
				assertThat(keysInSlot(cluster.replicaOf(to), slot)).contains(key(id));
			}
		}
		assertThat(movedReplies(from)).as("the old master redirected the store").isGreaterThan(movedBefore);
		assertThat(follower.replicationFailures()).isZero();
	}

	private static long movedReplies(RedisServer node) {
		return node.command("INFO", "errorstats")
			.lines()
			.filter((line) -> line.startsWith("errorstat_MOVED:count="))
			.mapToLong((line) -> Long.parseLong(line.substring("errorstat_MOVED:count=".length()).trim()))
			.sum();
	}

	private static List<String> keysInSlot(RedisServer node, int slot) {
		return node.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "100").lines().toList();
	}

	private static List<String> idsInOneSlot(int count) {
		List<String> ids = new ArrayList<>(List.of("migrating"));
		int slot = SlotHash.getSlot(key("migrating"));
		for (int i = 0; ids.size() < count; i++) {
			if (SlotHash.getSlot(key("migrating:" + i)) == slot) {
				ids.add("migrating:" + i);
			}
		}
		return ids;
	}

}
