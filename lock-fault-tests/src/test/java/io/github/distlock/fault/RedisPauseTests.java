package io.github.distlock.fault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.redis.LockServiceProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 4: Redis frozen with SIGSTOP for less than the lease. The holder keeps its
 * lock; waiters, whether they were already waiting or start during the pause, return
 * within their {@code waitTime} plus one command timeout (empty, or with Redis's timeout
 * exception) and never get the lock.
 */
class RedisPauseTests {

	static final Duration LEASE = Duration.ofSeconds(3);

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	static final Duration PAUSE = Duration.ofMillis(1200);

	/**
	 * Allowance for thread scheduling on a loaded CI machine on top of waitTime + one
	 * command timeout; the measured worst case is printed.
	 */
	static final Duration SCHEDULING_ALLOWANCE = Duration.ofMillis(750);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void aPauseShorterThanTheLeaseKeepsTheHolderAndBoundsTheWaiters() throws Exception {
		ExecutorService pool = Executors.newCachedThreadPool();
		try (LockClients clients = new LockClients(redis.host(), redis.port(), COMMAND_TIMEOUT)) {
			LockEngine holderService = clients.newService(LEASE, Duration.ofMinutes(1));
			LockEngine waiting = clients.newService(LEASE, Duration.ofMinutes(1));
			LockEngine arriving = clients.newService(LEASE, Duration.ofMinutes(1));
			LockLostEvents events = LockLostEvents.of(holderService);
			LockHandle holder = holderService.lock("paused-redis", Duration.ZERO);
			String holderKey = redis.command("GET", "distlock:{paused-redis}");

			Future<Outcome> early = pool.submit(() -> tryLock(waiting, Duration.ofMillis(1500)));
			await().atMost(Duration.ofSeconds(10)).until(() -> LockServiceProbe.trackedLockCount(waiting) == 1);
			redis.server().pause();
			long pausedAt = System.nanoTime();
			Future<Outcome> once;
			Future<Outcome> shortWait;
			Future<Outcome> longWait;
			try {
				once = pool.submit(() -> tryLock(arriving, Duration.ZERO));
				shortWait = pool.submit(() -> tryLock(arriving, Duration.ofMillis(300)));
				longWait = pool.submit(() -> tryLock(arriving, Duration.ofMillis(900)));
				TimeUnit.NANOSECONDS.sleep(PAUSE.toNanos() - (System.nanoTime() - pausedAt));
			}
			finally {
				redis.server().resume();
			}
			List<Outcome> outcomes = List.of(early.get(30, TimeUnit.SECONDS), once.get(30, TimeUnit.SECONDS),
					shortWait.get(30, TimeUnit.SECONDS), longWait.get(30, TimeUnit.SECONDS));
			long slowestOverrun = 0;
			for (Outcome outcome : outcomes) {
				assertThat(outcome.acquired()).as("%s acquired the held lock", outcome).isFalse();
				assertThat(outcome.elapsed()).as("%s returned within waitTime + command timeout", outcome)
					.isLessThanOrEqualTo(outcome.waitTime().plus(COMMAND_TIMEOUT).plus(SCHEDULING_ALLOWANCE));
				slowestOverrun = Math.max(slowestOverrun, outcome.elapsed().minus(outcome.waitTime()).toMillis());
			}

			// The holder kept the lock through the pause, and its renewal goes on.
			assertThat(holder.isHeld()).isTrue();
			long renewalsFailedSoFar = holderService.renewalFailures();
			await().atMost(LEASE).until(() -> !holderService.isRenewalFailing());
			assertThat(holder.isHeld()).isTrue();
			assertThat(redis.command("GET", "distlock:{paused-redis}")).isIn(holderKey, holderKey + "+");
			assertThat(Long.parseLong(redis.command("PTTL", "distlock:{paused-redis}"))).isPositive();
			assertThat(events.pending()).isEmpty();
			assertThat(holderService.locksLost()).isZero();
			holder.close();
			assertThat(redis.keys("distlock:{paused-redis}")).isEmpty();
			System.out.printf("scenario 4: Redis paused %d ms with a %d ms lease: holder kept the lock (%d renewal "
					+ "failures); waiters returned at most %d ms after their waitTime (command timeout %d ms): %s%n",
					PAUSE.toMillis(), LEASE.toMillis(), renewalsFailedSoFar, slowestOverrun, COMMAND_TIMEOUT.toMillis(),
					outcomes);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static Outcome tryLock(LockEngine service, Duration waitTime) {
		long start = System.nanoTime();
		String result;
		boolean acquired = false;
		try {
			Optional<LockHandle> handle = service.tryLock("paused-redis", waitTime, null);
			acquired = handle.isPresent();
			result = acquired ? "acquired" : "empty";
			handle.ifPresent(LockHandle::close);
		}
		catch (RuntimeException ex) {
			result = ex.getClass().getSimpleName();
		}
		return new Outcome(waitTime, Duration.ofNanos(System.nanoTime() - start), acquired, result);
	}

	record Outcome(Duration waitTime, Duration elapsed, boolean acquired, String result) {

		@Override
		public String toString() {
			return "waitTime " + this.waitTime.toMillis() + " ms -> " + this.result + " after "
					+ this.elapsed.toMillis() + " ms";
		}

	}

}
