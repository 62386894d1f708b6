package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.testsupport.RedisSentinelGroup;
import io.github.distlock.testsupport.RedisSentinelGroupExtension;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The failover the articles describe, with Sentinel (a master, 2 replicas, 3 Sentinels):
 * replication to both replicas is frozen, instance A acquires, the master is killed
 * (SIGKILL) and the Sentinels promote a replica that never saw the lock; instance B,
 * following Sentinel, acquires the same lock. Without replica acknowledgement A and B
 * both hold it; with {@code min-replicas=1} A's acquisition fails closed. A lock the
 * replicas acknowledged survives the same kill, and the store's own connections follow
 * the new master.
 */
class ReplicaAcknowledgedSentinelFailoverTests {

	private static final int ITERATIONS = 2;

	@RegisterExtension
	static final RedisSentinelGroupExtension sentinel = new RedisSentinelGroupExtension();

	private final List<Runnable> cleanUps = new ArrayList<>();

	@AfterEach
	void closeClients() {
		for (int i = this.cleanUps.size() - 1; i >= 0; i--) {
			this.cleanUps.get(i).run();
		}
	}

	@Test
	void aFailoverAfterAnUnreplicatedAcquireMakesTwoOwnersOnlyWithoutReplicaAcknowledgement() {
		RedisSentinelGroup group = sentinel.group();
		int[] doubleOwnerships = new int[2];
		int[] failedClosed = new int[2];
		for (int iteration = 0; iteration < 2 * ITERATIONS; iteration++) {
			int minReplicas = iteration % 2;
			String lockId = "order:" + iteration;
			RedisServer master = group.master();
			RedisLockService instanceA = newService(minReplicas);
			List<LockHandle> heldByA = new ArrayList<>();
			group.loseUnreplicatedWrites(() -> {
				try {
					heldByA.add(instanceA.lock(lockId, Duration.ZERO));
				}
				catch (LockNotAcquiredException ex) {
					assertThat(ex).hasMessageContaining("0 of 1 required replicas acknowledged it within 1s");
					failedClosed[minReplicas]++;
				}
			});
			RedisLockService instanceB = newService(0);
			Optional<LockHandle> heldByB = instanceB.tryLock(lockId, Duration.ZERO, null);
			if (heldByB.isPresent() && heldByA.stream().anyMatch(LockHandle::isHeld)) {
				doubleOwnerships[minReplicas]++;
			}
			assertThat(heldByB).as("B acquires on the promoted replica, which never saw A's write").isPresent();
			group.restartAsReplica(master);
		}
		System.out.println("[replication] Sentinel, replication frozen, master killed after the acquire, " + ITERATIONS
				+ " iterations each: min-replicas=0: " + doubleOwnerships[0] + " double ownerships / min-replicas=1: "
				+ doubleOwnerships[1] + " (" + failedClosed[1] + " acquisitions failed closed)");
		assertThat(doubleOwnerships[0]).isEqualTo(ITERATIONS);
		assertThat(doubleOwnerships[1]).isZero();
		assertThat(failedClosed[1]).isEqualTo(ITERATIONS);
	}

	@Test
	void aLockTheReplicasAcknowledgedSurvivesTheMastersDeathAndTheStoreFollowsTheNewMaster() {
		RedisSentinelGroup group = sentinel.group();
		int kept = 0;
		for (int iteration = 0; iteration < ITERATIONS; iteration++) {
			String lockId = "invoice:" + iteration;
			RedisLockService instanceA = newService(1);
			LockHandle heldByA = instanceA.lock(lockId, Duration.ZERO);
			RedisServer master = group.master();
			group.killMaster();
			RedisLockService instanceB = newService(0);
			if (instanceB.tryLock(lockId, Duration.ZERO, null).isEmpty() && heldByA.isHeld()) {
				kept++;
			}
			// A's connections reconnect to the master Sentinel names now; its remaining
			// replica acknowledges once it has synchronised with it.
			String next = "after-failover:" + iteration;
			LockHandle again = await().atMost(Duration.ofSeconds(30))
				.ignoreExceptionsInstanceOf(LockNotAcquiredException.class)
				.until(() -> instanceA.lock(next, Duration.ZERO), (handle) -> handle != null);
			assertThat(group.master().command("EXISTS", new LockKeys("distlock:").lockKey(next))).isEqualTo("1");
			again.close();
			group.restartAsReplica(master);
		}
		System.out.println("[replication] Sentinel, min-replicas=1, master killed right after the acquire: " + kept
				+ " of " + ITERATIONS + " locks kept by the promoted replica");
		assertThat(kept).isEqualTo(ITERATIONS);
	}

	private RedisLockService newService(int minReplicas) {
		RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(sentinel.masterName());
		for (String node : sentinel.sentinelNodes().split(",")) {
			int colon = node.lastIndexOf(':');
			configuration.sentinel(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1)));
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
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
