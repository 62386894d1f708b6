package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The connections of replica-acknowledged writes on a real master with one replica: as
 * many stay open as writes ran at once, and idle ones are closed after their timeout.
 */
class ReplicaAcknowledgedWritesTests {

	private static final Duration PATIENT = Duration.ofSeconds(20);

	private static RedisServer master;

	private static RedisServer replica;

	private final LettuceConnectionFactory factory = new LettuceConnectionFactory(
			new RedisStandaloneConfiguration(master.host(), master.port()));

	private final List<ReplicaAcknowledgedWrites> writes = new ArrayList<>();

	@BeforeAll
	static void startMasterAndReplica() {
		master = RedisServer.start();
		replica = RedisServer.builder().replicaOf(master).start();
	}

	@AfterAll
	static void stopThem() {
		if (replica != null) {
			replica.close();
		}
		if (master != null) {
			master.close();
		}
	}

	@AfterEach
	void close() {
		this.writes.forEach(ReplicaAcknowledgedWrites::close);
		this.factory.destroy();
	}

	@Test
	void concurrentWritesReuseTheirConnectionsInsteadOfOpeningNewOnes() throws Exception {
		ReplicaAcknowledgedWrites writes = writes(Duration.ofMinutes(1));
		int threads = 16;
		int rounds = 25;
		concurrently(writes, threads, rounds);
		System.out.printf(
				"[replica-writes] %d threads x %d acknowledged acquisitions of distinct locks: %d"
						+ " connections opened, %d open%n",
				threads, rounds, writes.openedConnections(), writes.openConnections());
		assertThat(writes.openedConnections()).isLessThanOrEqualTo(threads);
		assertThat(writes.openConnections()).isEqualTo(writes.openedConnections());
	}

	@Test
	void idleConnectionsAreClosedOnceUnusedForTheirTimeout() throws Exception {
		ReplicaAcknowledgedWrites writes = writes(Duration.ZERO);
		concurrently(writes, 4, 5);
		// Given back last: every other connection has been idle for at least the
		// timeout of 0.
		acquire(writes, "last");
		assertThat(writes.openConnections()).isEqualTo(1);
	}

	private ReplicaAcknowledgedWrites writes(Duration idleTimeout) {
		this.factory.afterPropertiesSet();
		this.factory.start();
		ReplicaAcknowledgedWrites writes = new ReplicaAcknowledgedWrites(this.factory, 1, PATIENT, idleTimeout);
		this.writes.add(writes);
		return writes;
	}

	/**
	 * {@code threads} threads, started together, each acquiring its own locks
	 * {@code rounds} times (every acquisition waits for the replica).
	 */
	private void concurrently(ReplicaAcknowledgedWrites writes, int threads, int rounds) throws Exception {
		CyclicBarrier start = new CyclicBarrier(threads);
		List<CompletableFuture<Void>> done = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			done.add(CompletableFuture.runAsync(() -> {
				try {
					start.await(PATIENT.toSeconds(), TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				for (int round = 0; round < rounds; round++) {
					acquire(writes, thread + ":" + round);
				}
			}, (runnable) -> new Thread(runnable, "writer-" + thread).start()));
		}
		CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(PATIENT.toSeconds(), TimeUnit.SECONDS);
	}

	private void acquire(ReplicaAcknowledgedWrites writes, String id) {
		RedisLockCommands commands = new RedisLockCommands(new StringRedisTemplate(this.factory), "distlock:released",
				60_000);
		String key = new LockKeys("distlock:").lockKey(id);
		ReplicaAcknowledgedWrites.Written written = commands.acquire(writes, key, "owner", 30_000);
		assertThat(written.reply()).as("fencing token").isPositive();
		assertThat(written.acknowledged()).as("replicas that acknowledged").isEqualTo(1);
	}

}
