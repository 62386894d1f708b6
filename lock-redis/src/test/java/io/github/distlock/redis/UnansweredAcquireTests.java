package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.support.DurationText;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.QueryTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An acquire whose reply is lost (the client timed out; Redis may have applied it) is
 * tried again while the wait time remains, with the same owner token, so that a write the
 * client never heard of becomes the hold instead of a key nobody owns; when the wait time
 * passes first, the caller gets {@link LockNotAcquiredException} caused by the last
 * failure, and the write is removed again. Forced with a template that applies the script
 * in Redis and then reports a timeout.
 */
class UnansweredAcquireTests {

	/** The lease (default 30 s): a key gone well before it was removed, not expired. */
	private static final Duration CLEAN_UP_BOUND = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final ScriptInterceptingTemplate template = new ScriptInterceptingTemplate(
			this.clients.newConnectionFactory());

	private final LockEngine service = RedisEngines.blocking(this.template, RedisLockSettings.defaults());

	private final LockEngine other = this.clients.newService();

	@Test
	void anAcquireAppliedButUnansweredBecomesTheHoldOfItsRetry() {
		int rounds = 20;
		try {
			for (int i = 0; i < rounds; i++) {
				String id = "applied-" + i;
				List<String> owners = new ArrayList<>();
				AtomicInteger attempts = new AtomicInteger();
				this.template.intercept(Thread.currentThread(), LockScripts.ACQUIRE, (proceed) -> {
					Object reply = proceed.get();
					owners.add(redis.command("GET", key(id)));
					if (attempts.incrementAndGet() == 1) {
						throw new QueryTimeoutException("Injected: the reply was lost");
					}
					return reply;
				});
				LockHandle handle = this.service.tryLock(id, Duration.ofSeconds(5), null).orElseThrow();
				this.template.stopIntercepting(Thread.currentThread());
				// One key, written by the first attempt and held by its retry.
				assertThat(attempts).hasValue(2);
				assertThat(owners.get(1)).isEqualTo(owners.get(0));
				assertThat(this.other.tryLock(id, Duration.ZERO, null)).as("round %d", i).isEmpty();
				handle.close();
				assertThat(redis.keys(key(id))).as("round %d", i).isEmpty();
			}
		}
		finally {
			this.service.destroy();
		}
		System.out.printf("%d rounds: the write of an unanswered acquire was taken over by its retry%n", rounds);
	}

	@Test
	void anAcquireStillUnansweredAtTheDeadlineFailsWithItsCauseAndLeavesNoKey() {
		List<Duration> waitTimes = List.of(Duration.ZERO, Duration.ofMillis(300), Duration.ofSeconds(1));
		try {
			for (Duration waitTime : waitTimes) {
				String id = "never-answered-" + waitTime.toMillis();
				AtomicInteger attempts = new AtomicInteger();
				this.template.intercept(Thread.currentThread(), LockScripts.ACQUIRE, (proceed) -> {
					proceed.get();
					attempts.incrementAndGet();
					throw new QueryTimeoutException("Injected: the reply was lost");
				});
				long start = System.nanoTime();
				assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> this.service.tryLock(id, waitTime, null))
					.withMessageContaining("was not acquired within " + DurationText.of(waitTime))
					.withMessageContaining("the lock store did not answer")
					.withCauseInstanceOf(QueryTimeoutException.class);
				long elapsed = System.nanoTime() - start;
				this.template.stopIntercepting(Thread.currentThread());
				// No failure while the wait time remained.
				assertThat(elapsed).as("%s: returned after", waitTime).isGreaterThanOrEqualTo(waitTime.toNanos());
				// Removed again, not left to expire with the lease.
				await().atMost(CLEAN_UP_BOUND).until(() -> redis.keys(key(id)).isEmpty());
				assertThat(this.other.tryLock(id, Duration.ZERO, null)).isPresent().get().satisfies(LockHandle::close);
				System.out.printf("wait time %d ms: %d unanswered attempts, failed after %d ms, no key left%n",
						waitTime.toMillis(), attempts.get(), TimeUnit.NANOSECONDS.toMillis(elapsed));
				if (waitTime.isZero()) {
					assertThat(attempts).hasValue(1);
				}
			}
		}
		finally {
			this.service.destroy();
		}
	}

	@Test
	void aFairAcquireAppliedButUnansweredIsTriedAgainAndBecomesTheHold() {
		// Found by the simulation (fair mode threw the store's failure at once, leaving a
		// queue entry or grant to expire): now as the default mode, retried with the same
		// token until the wait time ends.
		int rounds = 10;
		try {
			for (int i = 0; i < rounds; i++) {
				String id = "fair-applied-" + i;
				AtomicInteger attempts = new AtomicInteger();
				this.template.intercept(Thread.currentThread(), QueueScripts.ACQUIRE_FAIR, (proceed) -> {
					Object reply = proceed.get();
					if (attempts.incrementAndGet() == 1) {
						throw new QueryTimeoutException("Injected: the reply was lost");
					}
					return reply;
				});
				LockHandle handle = this.service.fair().tryLock(id, Duration.ofSeconds(5), null).orElseThrow();
				this.template.stopIntercepting(Thread.currentThread());
				assertThat(attempts).hasValue(2);
				assertThat(this.other.fair().tryLock(id, Duration.ZERO, null)).as("round %d", i).isEmpty();
				handle.close();
				assertThat(this.other.fair().tryLock(id, Duration.ZERO, null)).as("round %d", i)
					.hasValueSatisfying(LockHandle::close);
			}
		}
		finally {
			this.service.destroy();
		}
	}

	@Test
	void aFairAcquireStillUnansweredAtTheDeadlineFailsWithItsCause() {
		try {
			this.template.intercept(Thread.currentThread(), QueueScripts.ACQUIRE_FAIR, (proceed) -> {
				proceed.get();
				throw new QueryTimeoutException("Injected: the reply was lost");
			});
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> this.service.fair().tryLock("fair-never-answered", Duration.ofMillis(300), null))
				.withMessageContaining("the lock store did not answer")
				.withCauseInstanceOf(QueryTimeoutException.class);
			this.template.stopIntercepting(Thread.currentThread());
			await().atMost(CLEAN_UP_BOUND)
				.until(() -> this.other.fair().tryLock("fair-never-answered", Duration.ZERO, null).map((held) -> {
					held.close();
					return true;
				}).orElse(false));
		}
		finally {
			this.service.destroy();
		}
	}

	@Test
	void attemptsAfterAnUnansweredOneAreSpacedByABackOff() {
		AtomicInteger attempts = new AtomicInteger();
		try {
			this.template.intercept(Thread.currentThread(), LockScripts.ACQUIRE, (proceed) -> {
				attempts.incrementAndGet();
				throw new QueryTimeoutException("Injected: Redis is unreachable");
			});
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> this.service.tryLock("refused", Duration.ofSeconds(2), null));
		}
		finally {
			this.service.destroy();
		}
		System.out.printf("a store failing at once for 2 s was asked %d times%n", attempts.get());
		// Back-offs of at least 25, 50, 100, 200, 400, 500, 500 ... ms: at most 8 in 2 s,
		// however fast the failures come; a loop would make thousands.
		assertThat(attempts.get()).isBetween(2, 8);
	}

	@Test
	void aWaiterWhoseRecheckGoesUnansweredKeepsWaitingAndGetsTheLock() throws Exception {
		String id = "waiting-through-failures";
		LockHandle foreign = this.other.lock(id, Duration.ZERO);
		AtomicInteger attempts = new AtomicInteger();
		try {
			CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> {
				this.template.intercept(Thread.currentThread(), LockScripts.ACQUIRE, (proceed) -> {
					// Refused once, then three lost replies (applied: still held).
					int attempt = attempts.incrementAndGet();
					Object reply = proceed.get();
					if (attempt >= 2 && attempt <= 4) {
						throw new QueryTimeoutException("Injected: the reply was lost");
					}
					return reply;
				});
				try {
					return this.service.tryLock(id, Duration.ofSeconds(20), null);
				}
				finally {
					this.template.stopIntercepting(Thread.currentThread());
				}
			});
			await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() >= 4);
			foreign.close();
			Optional<LockHandle> got = waiter.get(30, TimeUnit.SECONDS);
			assertThat(got).isPresent();
			assertThat(this.other.tryLock(id, Duration.ZERO, null)).isEmpty();
			got.get().close();
			assertThat(redis.keys(key(id))).isEmpty();
		}
		finally {
			this.service.destroy();
		}
		System.out.printf("a waiter with 3 unanswered re-checks got the lock after %d attempts%n", attempts.get());
	}

	private static String key(String lockId) {
		return new LockKeys("distlock:").lockKey(lockId);
	}

}
