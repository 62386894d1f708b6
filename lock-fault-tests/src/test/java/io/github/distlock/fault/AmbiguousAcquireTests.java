package io.github.distlock.fault;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.redis.LockServiceProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.QueryTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Scenario 5: the ambiguous acquire. {@code CLIENT PAUSE WRITE} holds the acquire script
 * longer than the command timeout, so the client gives up while Redis applies the acquire
 * later. The caller never runs its critical section, and the late lock is cleaned up (or
 * expires): no other client is blocked past the lease.
 */
class AmbiguousAcquireTests {

	static final Duration LEASE = Duration.ofSeconds(2);

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(300);

	static final Duration PAUSE = Duration.ofMillis(1000);

	static final int ROUNDS = 3;

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void anAcquireAppliedAfterTheClientGaveUpRunsNothingAndBlocksNobodyPastTheLease() throws Exception {
		int cleanedUpAtOnce = 0;
		try (LockClients clients = new LockClients(redis.host(), redis.port(), COMMAND_TIMEOUT)) {
			LockEngine gaveUp = clients.newService(LEASE, Duration.ofMinutes(1));
			LockEngine other = clients.newService(LEASE, Duration.ofMinutes(1));
			for (int round = 0; round < ROUNDS; round++) {
				String id = "ambiguous-" + round;
				String key = "distlock:{" + id + "}";
				redis.command("CLIENT", "PAUSE", Long.toString(PAUSE.toMillis()), "WRITE");
				AtomicBoolean ran = new AtomicBoolean();
				// A wait time shorter than the command timeout: the client gives up with
				// its only attempt unanswered (a longer one would try again with the same
				// owner token after the pause and hold the lock Redis applied late).
				assertThatExceptionOfType(LockNotAcquiredException.class)
					.as("round %d: acquire outlasting the command timeout", round)
					.isThrownBy(() -> gaveUp.runLocked(id, COMMAND_TIMEOUT.dividedBy(2), () -> ran.set(true)))
					.withCauseInstanceOf(QueryTimeoutException.class);
				assertThat(ran).as("round %d: critical section ran", round).isFalse();
				assertThat(gaveUp.heldLocks()).isEmpty();
				assertThat(LockServiceProbe.trackedLockCount(gaveUp)).isZero();

				// A write waits for the end of the pause, after which Redis runs what it
				// held back, in order.
				redis.command(Duration.ofSeconds(10), "SET", "pause-probe", "1");
				long pauseEndedAt = System.nanoTime();
				assertThat(Long.parseLong(redis.command("PTTL", key))).as("late lock without expiry").isNotEqualTo(-1);
				Optional<LockHandle> taken = other.tryLock(id, LEASE.plus(LEASE.dividedBy(3)), null);
				assertThat(taken).as("round %d: lock free within the lease after the pause", round).isPresent();
				if (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pauseEndedAt) < LEASE.toMillis() / 2) {
					cleanedUpAtOnce++;
				}
				taken.get().close();
				assertThat(redis.keys(key)).isEmpty();
			}
			assertThat(redis.keys("distlock:*")).allMatch((key) -> key.endsWith(":fence") || key.endsWith(":released"));
		}
		System.out.printf(
				"scenario 5: %d ambiguous acquires (CLIENT PAUSE WRITE %d ms, command timeout %d ms): "
						+ "critical section never ran; late lock cleaned up at once %d times, otherwise expired%n",
				ROUNDS, PAUSE.toMillis(), COMMAND_TIMEOUT.toMillis(), cleanedUpAtOnce);
	}

}
