package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.testsupport.ClusterSlotMigration;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The failover the articles describe, on a real Redis Cluster (3 masters, 3 replicas):
 * replication from the lock's master is frozen, instance A acquires, the master is killed
 * (SIGKILL) and its replica, which never saw the lock, is promoted; instance B, following
 * the new topology, acquires the same lock. Without replica acknowledgement A and B both
 * hold it; with {@code min-replicas=1} A's acquisition fails closed and only B holds it.
 * And a lock acknowledged by the replica survives the same kill, and replicated
 * acquisitions follow a slot being migrated and moved.
 */
class ReplicaAcknowledgedClusterFailoverTests {

	private static final int ITERATIONS = 3;

	@RegisterExtension
	static final RedisClusterExtension clusterExtension = new RedisClusterExtension();

	private final List<Runnable> cleanUps = new ArrayList<>();

	@AfterEach
	void closeClients() {
		for (int i = this.cleanUps.size() - 1; i >= 0; i--) {
			this.cleanUps.get(i).run();
		}
	}

	@Test
	void aFailoverAfterAnUnreplicatedAcquireMakesTwoOwnersOnlyWithoutReplicaAcknowledgement() {
		RedisCluster cluster = clusterExtension.cluster();
		int[] doubleOwnerships = new int[2];
		int[] failedClosed = new int[2];
		for (int iteration = 0; iteration < 2 * ITERATIONS; iteration++) {
			int minReplicas = iteration % 2;
			String lockId = "order:" + iteration;
			RedisServer master = cluster.masterOf(key(lockId));
			RedisLockService instanceA = newService(cluster, minReplicas);
			List<LockHandle> heldByA = new ArrayList<>();
			cluster.loseUnreplicatedWrites(master, () -> {
				try {
					heldByA.add(instanceA.lock(lockId, Duration.ZERO));
				}
				catch (LockNotAcquiredException ex) {
					assertThat(ex).hasMessageContaining("0 of 1 required replicas acknowledged it within 1s");
					failedClosed[minReplicas]++;
				}
			});
			// B is another instance, connecting after the failover (so it knows the new
			// master).
			RedisLockService instanceB = newService(cluster, 0);
			Optional<LockHandle> heldByB = instanceB.tryLock(lockId, Duration.ZERO, null);
			if (heldByB.isPresent() && heldByA.stream().anyMatch(LockHandle::isHeld)) {
				doubleOwnerships[minReplicas]++;
			}
			assertThat(heldByB).as("B acquires on the promoted replica, which never saw A's write").isPresent();
			cluster.restartAsReplica(master);
		}
		System.out.println("[replication] cluster, replication frozen, master killed after the acquire, " + ITERATIONS
				+ " iterations each: min-replicas=0: " + doubleOwnerships[0] + " double ownerships / min-replicas=1: "
				+ doubleOwnerships[1] + " (" + failedClosed[1] + " acquisitions failed closed)");
		assertThat(doubleOwnerships[0]).isEqualTo(ITERATIONS);
		assertThat(doubleOwnerships[1]).isZero();
		assertThat(failedClosed[1]).isEqualTo(ITERATIONS);
	}

	@Test
	void aLockTheReplicaAcknowledgedSurvivesTheMastersDeath() {
		RedisCluster cluster = clusterExtension.cluster();
		int kept = 0;
		for (int iteration = 0; iteration < ITERATIONS; iteration++) {
			String lockId = "invoice:" + iteration;
			RedisServer master = cluster.masterOf(key(lockId));
			RedisLockService instanceA = newService(cluster, 1);
			LockHandle heldByA = instanceA.lock(lockId, Duration.ZERO);
			cluster.killMaster(master);
			RedisLockService instanceB = newService(cluster, 0);
			if (instanceB.tryLock(lockId, Duration.ZERO, null).isEmpty() && heldByA.isHeld()) {
				kept++;
			}
			cluster.restartAsReplica(master);
		}
		System.out.println("[replication] cluster, min-replicas=1, master killed right after the acquire: " + kept
				+ " of " + ITERATIONS + " locks kept by the promoted replica");
		assertThat(kept).isEqualTo(ITERATIONS);
	}

	@Test
	void acquisitionsFollowAMigratedSlotAndWaitForTheNewMastersReplica() {
		RedisCluster cluster = clusterExtension.cluster();
		RedisLockService locks = newService(cluster, 1);
		// Ids that share one slot, and a master to move it to.
		List<String> ids = idsInOneSlot(3);
		int slot = cluster.keySlot(key(ids.get(0)));
		RedisServer from = cluster.masterOf(key(ids.get(0)));
		RedisServer to = cluster.masters().stream().filter((master) -> master != from).findFirst().orElseThrow();
		// Warms up: the store's connections know the slot on its first master. The
		// follower does nothing else until the slot has moved.
		locks.lock(ids.get(0), Duration.ZERO).close();
		RedisLockService follower = newService(cluster, 1);
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

	private static String key(String lockId) {
		return new LockKeys("distlock:").lockKey(lockId);
	}

	private RedisLockService newService(RedisCluster cluster, int minReplicas) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(List.of(cluster.nodes().split(","))),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(1)).build());
		factory.afterPropertiesSet();
		factory.start();
		RedisLockService service = new RedisLockService(new StringRedisTemplate(factory),
				RedisLockSettings.defaults()
					.withLeaseTime(Duration.ofMinutes(5))
					.withReplication(minReplicas, Duration.ofSeconds(1)));
		this.cleanUps.add(factory::destroy);
		this.cleanUps.add(service::destroy);
		return service;
	}

}
