package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockHandle;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.core.GrantCountingStore;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The default mode on a real {@code redis-server}, two instances: a release by one
 * instance grants the lock to the queued waiter of the other, which holds it with the
 * announced token and no acquire round trip of its own; under contention of 2 instances
 * &times; 8 threads the lock never has two holders and fencing tokens increase.
 */
class CrossInstanceGrantTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final List<LockEngine> engines = new ArrayList<>();

	@AfterEach
	void destroy() {
		this.engines.forEach(LockEngine::destroy);
	}

	@Test
	void aHandOverAcrossInstancesIsAGrantTheWaiterHoldsWithoutAnAcquire() throws Exception {
		GrantCountingStore first = counted();
		GrantCountingStore second = counted();
		LockEngine holding = engine(first);
		LockEngine waiting = engine(second);
		String lockId = "cross-instance-grant";
		int rounds = 20;
		long acquiresAfterRelease = 0;
		int tokensNotGreater = 0;
		for (int round = 0; round < rounds; round++) {
			LockHandle holder = holding.tryLock(lockId, Duration.ZERO, null).orElseThrow();
			long acquiresOfThisRound = second.acquires();
			AtomicReference<LockHandle> next = new AtomicReference<>();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			Thread waiter = new Thread(() -> {
				try {
					next.set(waiting.tryLock(lockId, Duration.ofSeconds(20), null).orElseThrow());
				}
				catch (Throwable ex) {
					failure.set(ex);
				}
			}, "grant-waiter-" + round);
			waiter.start();
			// Turned away, queued, and parked.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> second.acquires() >= acquiresOfThisRound + 2 && EngineProbe.isQueuedWaiter(waiter));
			long acquiresBefore = second.acquires();
			holder.close();
			waiter.join(TimeUnit.SECONDS.toMillis(20));
			assertThat(waiter.isAlive()).isFalse();
			assertThat(failure.get()).isNull();
			acquiresAfterRelease += second.acquires() - acquiresBefore;
			if (next.get().fencingToken() <= holder.fencingToken()) {
				tokensNotGreater++;
			}
			next.get().close();
		}
		System.out.printf("[cross-instance-grant] %d hand-overs between 2 instances: grants announced to the waiting"
				+ " instance %d, its acquires after the release %d, claims after the announcement %d, tokens not"
				+ " greater than the holder's %d%n", rounds, second.grantsAnnounced(), acquiresAfterRelease,
				second.claimsAfterGrant(), tokensNotGreater);
		// (An acquire after the release can only be a fallback re-check that happened to
		// fall in the few hundred microseconds of the hand-over: printed, not asserted.)
		assertThat(second.grantsAnnounced()).isEqualTo(rounds);
		assertThat(second.claimsAfterGrant()).isZero();
		assertThat(tokensNotGreater).isZero();
	}

	@Test
	void twoInstancesOfEightThreadsNeverHoldTheLockAtOnceAndTokensIncrease() throws Exception {
		GrantCountingStore[] stores = { counted(), counted() };
		LockEngine[] instances = { engine(stores[0]), engine(stores[1]) };
		String lockId = "cross-instance-exclusion";
		int threadsPerInstance = 8;
		int perThread = 150;
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger notAcquired = new AtomicInteger();
		AtomicInteger tokensNotIncreasing = new AtomicInteger();
		AtomicLong lastToken = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		int[] unguarded = new int[1];
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 2 * threadsPerInstance; i++) {
			LockEngine instance = instances[i % 2];
			Thread thread = new Thread(() -> {
				try {
					start.await();
					for (int n = 0; n < perThread; n++) {
						Optional<LockHandle> handle = instance.tryLock(lockId, Duration.ofSeconds(30), null);
						if (handle.isEmpty()) {
							notAcquired.incrementAndGet();
							continue;
						}
						try (LockHandle held = handle.get()) {
							if (holders.incrementAndGet() > 1) {
								overlaps.incrementAndGet();
							}
							if (held.fencingToken() <= lastToken.get()) {
								tokensNotIncreasing.incrementAndGet();
							}
							lastToken.set(held.fencingToken());
							unguarded[0]++;
							holders.decrementAndGet();
						}
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}, "exclusion-" + i);
			threads.add(thread);
			thread.start();
		}
		start.countDown();
		for (Thread thread : threads) {
			thread.join(TimeUnit.MINUTES.toMillis(2));
			assertThat(thread.isAlive()).as(thread.getName() + " finished").isFalse();
		}
		int expected = 2 * threadsPerInstance * perThread;
		System.out.printf("[cross-instance-grant] 2 instances x %d threads, %d acquisitions: counted %d, overlaps %d,"
				+ " not acquired %d, tokens not increasing %d; grants announced %d / %d, claims after a grant %d / %d%n",
				threadsPerInstance, expected, unguarded[0], overlaps.get(), notAcquired.get(),
				tokensNotIncreasing.get(), stores[0].grantsAnnounced(), stores[1].grantsAnnounced(),
				stores[0].claimsAfterGrant(), stores[1].claimsAfterGrant());
		assertThat(failure.get()).isNull();
		assertThat(overlaps).hasValue(0);
		assertThat(notAcquired).hasValue(0);
		assertThat(unguarded[0]).isEqualTo(expected);
		assertThat(tokensNotIncreasing).hasValue(0);
		// Nothing left queued or held.
		assertThat(redis.command("EXISTS", "distlock:{" + lockId + "}")).isEqualTo("0");
	}

	private GrantCountingStore counted() {
		return new GrantCountingStore(new RedisLockStore(new StringRedisTemplate(this.clients.newConnectionFactory()),
				RedisLockSettings.defaults()));
	}

	private LockEngine engine(GrantCountingStore store) {
		LockEngine engine = new LockEngine(store, RedisLockSettings.defaults().leaseTime());
		this.engines.add(engine);
		return engine;
	}

}
