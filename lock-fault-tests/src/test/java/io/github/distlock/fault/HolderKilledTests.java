package io.github.distlock.fault;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.HeldLockInfo;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.ClientJvm;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 1: a holder process killed with SIGKILL at a random point of its
 * lock/hold/release loop. Another client acquires within lease + one renewal interval of
 * the kill, and no lock key ever outlives its lease.
 */
class HolderKilledTests {

	static final int CYCLES = 50;

	static final Duration LEASE = Duration.ofSeconds(2);

	static final Duration RENEWAL_INTERVAL = LEASE.dividedBy(3);

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	/**
	 * Client JVMs started ahead, so that JVM startup overlaps the previous cycles; niced,
	 * so that their boot does not delay the contender whose take-over is measured.
	 */
	static final int SPARES = 2;

	static final int SPARE_NICENESS = 10;

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	@RegisterExtension
	static final RedisServerExtension fence = new RedisServerExtension().withoutFlushing();

	@Test
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void aKilledHolderFreesTheLockWithinLeaseAndOneRenewalInterval() throws Exception {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long killedWhileHolding = 0;
		long slowestTakeOverNanos = 0;
		long slowestReturnNanos = 0;
		try (ClientJvms jvms = new ClientJvms(redis.server(), fence.server(), LEASE, COMMAND_TIMEOUT);
				LockClients clients = new LockClients(redis.host(), redis.port(), COMMAND_TIMEOUT);
				TtlWatch ttlWatch = TtlWatch.start(redis.server())) {
			LockEngine contender = clients.newService(LEASE, Duration.ofSeconds(3));
			Deque<ClientJvm> spares = new ArrayDeque<>();
			int started = 0;
			for (; started < Math.min(SPARES, CYCLES); started++) {
				spares.add(jvms.start(SPARE_NICENESS, "holder-" + started, "churn"));
			}
			for (int cycle = 0; cycle < CYCLES; cycle++) {
				ClientJvm holder = ClientJvms.awaitReady(spares.poll());
				if (started < CYCLES) {
					spares.add(jvms.start(SPARE_NICENESS, "holder-" + started++, "churn"));
				}
				String id = "killed-" + cycle;
				holder.send("go " + id);
				holder.awaitLine((line) -> line.startsWith("ACQUIRED"), Duration.ofSeconds(30));
				// A random point: holding, releasing, between two holds or inside an
				// acquire.
				TimeUnit.MILLISECONDS.sleep(random.nextInt(150));
				long killedAt = System.nanoTime();
				holder.kill();
				boolean holding = wasHolding(holder.lines());
				killedWhileHolding += holding ? 1 : 0;

				long ttl = Long.parseLong(redis.command("PTTL", "distlock:{" + id + "}"));
				assertThat(ttl == -2 || (ttl > 0 && ttl <= LEASE.toMillis()))
					.as("cycle %d: the dead holder's key is gone or expires within its lease, PTTL was %d", cycle, ttl)
					.isTrue();

				Duration budget = LEASE.plus(RENEWAL_INTERVAL).minusNanos(System.nanoTime() - killedAt);
				Optional<LockHandle> taken = contender.tryLock(id, budget.isNegative() ? Duration.ZERO : budget, null);
				long takeOverNanos = System.nanoTime() - killedAt;
				assertThat(taken)
					.as("cycle %d: lock taken over within lease + renewal interval (%s) of the kill; "
							+ "holder was %s; waited %d ms", cycle, LEASE.plus(RENEWAL_INTERVAL),
							holding ? "holding" : "not holding", TimeUnit.NANOSECONDS.toMillis(takeOverNanos))
					.isPresent();
				// When the winning acquire was sent: the returned call may add its round
				// trip and scheduling delays.
				long sentAfterKillNanos = acquireSentNanos(contender, id) - killedAt;
				assertThat(sentAfterKillNanos).as("cycle %d: ns from the kill to the winning acquire", cycle)
					.isLessThanOrEqualTo(LEASE.plus(RENEWAL_INTERVAL).toNanos());
				slowestTakeOverNanos = Math.max(slowestTakeOverNanos, sentAfterKillNanos);
				slowestReturnNanos = Math.max(slowestReturnNanos, takeOverNanos);
				taken.get().close();
				holder.close();
			}
			assertThat(ttlWatch.samples()).isPositive();
			assertThat(ttlWatch.keysWithoutTtl()).as("lock keys seen without expiry").isEmpty();
		}
		await().atMost(Duration.ofSeconds(15)).until(() -> redis.keys("distlock:*").isEmpty());
		System.out.printf(
				"scenario 1: %d kills, %d while holding; lease %d ms: winning acquire sent at most %d ms after "
						+ "the kill (bound %d ms), returned at most %d ms after it%n",
				CYCLES, killedWhileHolding, LEASE.toMillis(), TimeUnit.NANOSECONDS.toMillis(slowestTakeOverNanos),
				LEASE.plus(RENEWAL_INTERVAL).toMillis(), TimeUnit.NANOSECONDS.toMillis(slowestReturnNanos));
	}

	/**
	 * {@code System.nanoTime()} at which the acquire of the service's current hold of
	 * {@code id} was sent.
	 */
	private static long acquireSentNanos(LockEngine service, String id) {
		long nowNanos = System.nanoTime();
		Instant now = Instant.now();
		HeldLockInfo held = service.heldLocks()
			.stream()
			.filter((info) -> info.lockId().equals(id))
			.findFirst()
			.orElseThrow();
		return nowNanos - Duration.between(held.heldSince(), now).toNanos();
	}

	/**
	 * Whether the last thing the holder said before it died was that it held the lock.
	 */
	private static boolean wasHolding(List<String> lines) {
		for (int i = lines.size() - 1; i >= 0; i--) {
			String line = lines.get(i);
			if (line.startsWith("ACQUIRED") || line.startsWith("RELEASING")) {
				return true;
			}
			if (line.startsWith("RELEASED")) {
				return false;
			}
		}
		return false;
	}

}
