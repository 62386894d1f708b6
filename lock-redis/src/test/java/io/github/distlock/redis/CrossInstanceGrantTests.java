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
import org.jspecify.annotations.Nullable;
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
 * &times; 8 threads the lock never has two holders and fencing tokens increase, and the
 * instance that granted the lock waits for no announcement of that grant.
 */
class CrossInstanceGrantTests {

	private static final int THREADS_PER_INSTANCE = 8;

	private static final int PER_THREAD = 150;

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
		String lockId = "cross-instance-exclusion";
		Contention run = contend(new LockEngine[] { engine(stores[0]), engine(stores[1]) }, lockId);
		System.out.printf("[cross-instance-grant] 2 instances x %d threads, %d acquisitions: counted %d, overlaps %d,"
				+ " not acquired %d, tokens not increasing %d; grants announced %d / %d, claims after a grant %d / %d%n",
				THREADS_PER_INSTANCE, run.expected(), run.counted(), run.overlaps(), run.notAcquired(),
				run.tokensNotIncreasing(), stores[0].grantsAnnounced(), stores[1].grantsAnnounced(),
				stores[0].claimsAfterGrant(), stores[1].claimsAfterGrant());
		run.assertExclusive();
		// Nothing left queued or held.
		assertThat(redis.command("EXISTS", "distlock:{" + lockId + "}")).isEqualTo("0");
	}

	/**
	 * A hand-over that frees the lock for the other instance grants it to that instance's
	 * queued waiter: the lock is not free, so the local waiters have no race to hold back
	 * from, and the announcement of that grant tells them nothing. Here every such
	 * announcement is lost on its way to the instance that made the grant (its own
	 * waiters' grants still reach it). Before, its local head held back until the
	 * announcement's fallback after each of them (25 and 25 fallbacks of 20 ms in a run
	 * of 2,400 acquisitions, 26 and 25 announcements lost); now no hold-back waits for
	 * one (0 and 0, 133 and 134 lost).
	 */
	@Test
	void aLocalHeadDoesNotWaitForTheAnnouncementOfAGrantItsInstanceMadeToAnother() throws Exception {
		GrantCountingStore[] stores = { counted(), counted() };
		LockEngine[] instances = { engine(stores[0]), engine(stores[1]) };
		stores[0].loseAnnouncementsOfGrantsElsewhere();
		stores[1].loseAnnouncementsOfGrantsElsewhere();
		String lockId = "cross-instance-turn";
		Contention run = contend(instances, lockId);
		long[] fallbacks = { EngineProbe.announcementFallbacks(instances[0]),
				EngineProbe.announcementFallbacks(instances[1]) };
		System.out
			.printf("[cross-instance-grant] 2 instances x %d threads, %d acquisitions, announcements of the grants"
					+ " each made to the other lost on the way back to it: %d / %d; hold-backs ended by the fallback %d / %d;"
					+ " counted %d, overlaps %d, not acquired %d, tokens not increasing %d%n", THREADS_PER_INSTANCE,
					run.expected(), stores[0].grantsElsewhereLost(), stores[1].grantsElsewhereLost(), fallbacks[0],
					fallbacks[1], run.counted(), run.overlaps(), run.notAcquired(), run.tokensNotIncreasing());
		run.assertExclusive();
		assertThat(stores[0].grantsElsewhereLost() + stores[1].grantsElsewhereLost())
			.as("grants across instances whose announcement the granting instance lost")
			.isPositive();
		assertThat(fallbacks).containsExactly(0, 0);
		assertThat(redis.command("EXISTS", "distlock:{" + lockId + "}")).isEqualTo("0");
	}

	/**
	 * {@value #THREADS_PER_INSTANCE} threads per instance acquire {@code lockId}
	 * {@value #PER_THREAD} times each, with a non-atomic count and a fencing token check
	 * inside.
	 */
	private static Contention contend(LockEngine[] instances, String lockId) throws InterruptedException {
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger notAcquired = new AtomicInteger();
		AtomicInteger tokensNotIncreasing = new AtomicInteger();
		AtomicLong lastToken = new AtomicLong();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		int[] unguarded = new int[1];
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < instances.length * THREADS_PER_INSTANCE; i++) {
			LockEngine instance = instances[i % instances.length];
			Thread thread = new Thread(() -> {
				try {
					start.await();
					for (int n = 0; n < PER_THREAD; n++) {
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
		return new Contention(instances.length * THREADS_PER_INSTANCE * PER_THREAD, unguarded[0], overlaps.get(),
				notAcquired.get(), tokensNotIncreasing.get(), failure.get());
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

	/** What {@link #contend} counted. */
	private record Contention(int expected, int counted, int overlaps, int notAcquired, int tokensNotIncreasing,
			@Nullable Throwable failure) {

		/** Never two holders, every acquisition made and counted, tokens increasing. */
		void assertExclusive() {
			assertThat(this.failure).isNull();
			assertThat(this.overlaps).isZero();
			assertThat(this.notAcquired).isZero();
			assertThat(this.counted).isEqualTo(this.expected);
			assertThat(this.tokensNotIncreasing).isZero();
		}

	}

}
