package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failover the articles describe, on a real replicated topology: replication from the
 * lock's master is frozen, instance A acquires, the master is killed (SIGKILL) and a
 * replica that never saw the lock is promoted; instance B, following the new topology,
 * acquires the same lock. Without replica acknowledgement A and B both hold it; with
 * {@code min-replicas=1} A's acquisition fails closed and only B holds it. And a lock the
 * replicas acknowledged survives the same kill. One fixture for every topology: a
 * subclass says how to reach it and how to play the failover on it.
 */
abstract class ReplicaAcknowledgedFailoverTests {

	private final List<Runnable> cleanUps = new ArrayList<>();

	/** How the printed lines name the topology. */
	abstract String topology();

	/** Iterations of each scenario (and of each {@code min-replicas} value). */
	abstract int iterations();

	/** The master serving {@code lockId} now. */
	abstract RedisServer masterOf(String lockId);

	/**
	 * Freezes replication from {@code master}, runs {@code writes}, kills the master and
	 * returns once a replica that never saw the writes is promoted.
	 */
	abstract void loseUnreplicatedWrites(RedisServer master, Runnable writes);

	/** Kills {@code master} and returns once a replica is promoted. */
	abstract void killMaster(RedisServer master);

	/** Brings a killed master back, as a replica. */
	abstract void restartAsReplica(RedisServer master);

	/** A started connection factory to the topology, 1 s command timeout. */
	abstract LettuceConnectionFactory newConnectionFactory();

	/**
	 * Checks what else holds after the kill of {@code iteration}, with instance A (whose
	 * store knew the old master) still running.
	 */
	void afterKill(LockEngine instanceA, int iteration) {
	}

	@AfterEach
	void closeClients() {
		for (int i = this.cleanUps.size() - 1; i >= 0; i--) {
			this.cleanUps.get(i).run();
		}
	}

	@Test
	void aFailoverAfterAnUnreplicatedAcquireMakesTwoOwnersOnlyWithoutReplicaAcknowledgement() {
		int[] doubleOwnerships = new int[2];
		int[] failedClosed = new int[2];
		for (int iteration = 0; iteration < 2 * iterations(); iteration++) {
			int minReplicas = iteration % 2;
			String lockId = "order:" + iteration;
			RedisServer master = masterOf(lockId);
			LockEngine instanceA = newService(minReplicas);
			List<LockHandle> heldByA = new ArrayList<>();
			loseUnreplicatedWrites(master, () -> {
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
			LockEngine instanceB = newService(0);
			Optional<LockHandle> heldByB = instanceB.tryLock(lockId, Duration.ZERO, null);
			if (heldByB.isPresent() && heldByA.stream().anyMatch(LockHandle::isHeld)) {
				doubleOwnerships[minReplicas]++;
			}
			assertThat(heldByB).as("B acquires on the promoted replica, which never saw A's write").isPresent();
			restartAsReplica(master);
		}
		System.out.println("[replication] " + topology() + ", replication frozen, master killed after the acquire, "
				+ iterations() + " iterations each: min-replicas=0: " + doubleOwnerships[0]
				+ " double ownerships / min-replicas=1: " + doubleOwnerships[1] + " (" + failedClosed[1]
				+ " acquisitions failed closed)");
		assertThat(doubleOwnerships[0]).isEqualTo(iterations());
		assertThat(doubleOwnerships[1]).isZero();
		assertThat(failedClosed[1]).isEqualTo(iterations());
	}

	@Test
	void aLockTheReplicasAcknowledgedSurvivesTheMastersDeath() {
		int kept = 0;
		for (int iteration = 0; iteration < iterations(); iteration++) {
			String lockId = "invoice:" + iteration;
			RedisServer master = masterOf(lockId);
			LockEngine instanceA = newService(1);
			LockHandle heldByA = instanceA.lock(lockId, Duration.ZERO);
			killMaster(master);
			LockEngine instanceB = newService(0);
			if (instanceB.tryLock(lockId, Duration.ZERO, null).isEmpty() && heldByA.isHeld()) {
				kept++;
			}
			afterKill(instanceA, iteration);
			restartAsReplica(master);
		}
		System.out.println("[replication] " + topology() + ", min-replicas=1, master killed right after the acquire: "
				+ kept + " of " + iterations() + " locks kept by the promoted replica");
		assertThat(kept).isEqualTo(iterations());
	}

	/**
	 * An instance with a 5 minute lease whose acquisitions wait for {@code minReplicas}
	 * replicas for up to 1 s; closed after the test.
	 */
	LockEngine newService(int minReplicas) {
		LettuceConnectionFactory factory = newConnectionFactory();
		LockEngine service = RedisEngines.blocking(new StringRedisTemplate(factory),
				RedisLockSettings.defaults()
					.withLeaseTime(Duration.ofMinutes(5))
					.withReplication(minReplicas, Duration.ofSeconds(1)));
		this.cleanUps.add(factory::destroy);
		this.cleanUps.add(service::destroy);
		return service;
	}

	static String key(String lockId) {
		return new LockKeys("distlock:").lockKey(lockId);
	}

}
