package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import io.github.distlock.core.LostLock;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The {@link io.github.distlock.core.LockEngine} over the Redis store against a real
 * Redis started for this class.
 */
class RedisLockServiceTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void twoInstancesNeverHoldOneLockAtTheSameTime() throws Exception {
		LockEngine[] instances = { this.clients.newService(), this.clients.newService() };
		int threadsPerInstance = 8;
		int acquisitionsPerThread = 320;
		UnsafeCounter counter = new UnsafeCounter();
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerInstance);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		for (LockEngine instance : instances) {
			for (int t = 0; t < threadsPerInstance; t++) {
				workers.add(pool.submit(() -> {
					start.await();
					for (int i = 0; i < acquisitionsPerThread; i++) {
						try (LockHandle handle = instance.lock("counter", Duration.ofSeconds(30))) {
							if (holders.incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
							counter.incrementSlowly();
							holders.decrementAndGet();
						}
					}
					return null;
				}));
			}
		}
		start.countDown();
		for (Future<?> worker : workers) {
			worker.get(120, TimeUnit.SECONDS);
		}
		pool.shutdown();
		assertThat(overlaps).hasValue(0);
		assertThat(counter.value).isEqualTo(2 * threadsPerInstance * acquisitionsPerThread);
		assertThat(instances[0].trackedLockCount()).isZero();
		assertThat(instances[1].trackedLockCount()).isZero();
		assertThat(redis.keys("distlock:{counter}")).isEmpty();
	}

	@Test
	void aHolderWhoseLeaseRanOutCannotReleaseTheNextHoldersLock() {
		LockEngine a = this.clients.newService();
		LockEngine b = this.clients.newService();
		LockHandle first = a.tryLock("order-1", Duration.ZERO, Duration.ofMillis(200)).orElseThrow();
		await().atMost(Duration.ofSeconds(5)).until(() -> !a.isLocked("order-1"));
		assertThat(first.isHeld()).isFalse();
		LockHandle second = b.tryLock("order-1", Duration.ZERO, null).orElseThrow();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(first::close)
			.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("order-1"));
		assertThat(second.isHeld()).isTrue();
		assertThat(b.isLocked("order-1")).isTrue();
		assertThat(a.tryLock("order-1", Duration.ZERO, null)).isEmpty();
		assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
		second.close();
		assertThat(b.isLocked("order-1")).isFalse();
	}

	@Test
	void closeIsIdempotent() {
		LockEngine service = this.clients.newService();
		LockHandle handle = service.lock("idempotent", Duration.ZERO);
		handle.close();
		handle.close();
		assertThat(handle.isHeld()).isFalse();
		assertThat(service.isLocked("idempotent")).isFalse();
	}

	@Test
	void watchdogKeepsTheLockForManyLeasesWhileOthersTry() {
		// 1s, not less: on a loaded CI machine a renewal thread starved for a whole lease
		// would
		// (rightly) lose the lock, which is not what this test is about.
		RedisLockSettings shortLease = RedisLockSettings.defaults().withLeaseTime(Duration.ofSeconds(1));
		LockEngine holder = this.clients.newService(shortLease);
		LockEngine other = this.clients.newService(shortLease);
		// Connect first: an acquire whose reply comes after its lease counts as not
		// acquired.
		holder.isLocked("report");
		other.isLocked("report");
		LockHandle handle = holder.lock("report", Duration.ZERO);
		long start = System.nanoTime();
		int attempts = 0;
		while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(3200)) {
			assertThat(other.tryLock("report", Duration.ofMillis(50), null)).isEmpty();
			attempts++;
		}
		assertThat(attempts).isGreaterThan(3);
		assertThat(handle.isHeld()).isTrue();
		handle.close();
		assertThat(other.tryLock("report", Duration.ZERO, null)).isPresent();
	}

	@Test
	void aFixedLeaseIsNeverRenewed() {
		LockEngine service = this.clients.newService();
		LockHandle handle = service.tryLock("fixed", Duration.ZERO, Duration.ofMillis(300)).orElseThrow();
		await().atMost(Duration.ofSeconds(5)).until(() -> !service.isLocked("fixed"));
		assertThat(handle.isHeld()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
	}

	@Test
	void aCrashedHolderFreesTheLockWithinItsLease() {
		RedisLockSettings shortLease = RedisLockSettings.defaults().withLeaseTime(Duration.ofMillis(600));
		LettuceConnectionFactory crashing = this.clients.newConnectionFactory();
		LockEngine holder = RedisEngines.blocking(new StringRedisTemplate(crashing), shortLease);
		LockEngine other = this.clients.newService(shortLease);
		holder.isLocked("job");
		holder.lock("job", Duration.ZERO);
		long crashedAt = System.nanoTime();
		// The holder's process "dies": its connection is gone, so it neither renews nor
		// releases.
		crashing.destroy();
		Optional<LockHandle> taken = other.tryLock("job", Duration.ofSeconds(10), null);
		long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - crashedAt);
		assertThat(taken).isPresent();
		// Lease plus one renewal interval, with room for a slow machine; the wait itself
		// was 10s.
		assertThat(tookMillis).isLessThan(600 + 200 + 2000);
		taken.get().close();
		holder.destroy();
	}

	@Test
	void theSameThreadReentersWithoutWaitingAndReleasesWithTheOutermost() {
		LockEngine service = this.clients.newService();
		LockEngine other = this.clients.newService();
		LockHandle outer = service.lock("nested", Duration.ZERO);
		LockHandle inner = service.tryLock("nested", Duration.ZERO, null).orElseThrow();
		assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
		inner.close();
		assertThat(outer.isHeld()).isTrue();
		assertThat(other.isLocked("nested")).isTrue();
		outer.close();
		assertThat(other.isLocked("nested")).isFalse();
		assertThat(service.trackedLockCount()).isZero();
	}

	@Test
	void anotherThreadOfTheSameInstanceIsExcluded() throws Exception {
		LockEngine service = this.clients.newService();
		LockHandle handle = service.lock("local", Duration.ZERO);
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			assertThat(
					pool.submit(() -> service.tryLock("local", Duration.ofMillis(100), null)).get(10, TimeUnit.SECONDS))
				.isEmpty();
			Future<Long> waiting = pool.submit(() -> {
				try (LockHandle next = service.lock("local", Duration.ofSeconds(10))) {
					return next.fencingToken();
				}
			});
			handle.close();
			assertThat(waiting.get(10, TimeUnit.SECONDS)).isGreaterThan(handle.fencingToken());
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void fencingTokensIncreaseAcrossHoldersInstancesAndExpiry() {
		RedisLockSettings settings = RedisLockSettings.defaults().withFencingRetention(Duration.ofMillis(100));
		LockEngine a = this.clients.newService(settings);
		LockEngine b = this.clients.newService(settings);
		long last = 0;
		for (int i = 0; i < 500; i++) {
			LockEngine service = (i % 2 == 0) ? a : b;
			try (LockHandle handle = service.lock("fenced", Duration.ofSeconds(5))) {
				assertThat(handle.fencingToken()).isGreaterThan(last);
				last = handle.fencingToken();
			}
		}
		// After the lock key expired without release...
		LockHandle expiring = a.tryLock("fenced", Duration.ZERO, Duration.ofMillis(50)).orElseThrow();
		assertThat(expiring.fencingToken()).isGreaterThan(last);
		last = expiring.fencingToken();
		await().atMost(Duration.ofSeconds(5)).until(() -> !a.isLocked("fenced"));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(expiring::close);
		try (LockHandle handle = b.lock("fenced", Duration.ZERO)) {
			assertThat(handle.fencingToken()).isGreaterThan(last);
			last = handle.fencingToken();
		}
		// ...and after the fencing key itself expired.
		await().atMost(Duration.ofSeconds(5)).until(() -> redis.keys("distlock:{fenced}*").isEmpty());
		try (LockHandle handle = a.lock("fenced", Duration.ZERO)) {
			assertThat(handle.fencingToken()).isGreaterThan(last);
		}
	}

	@Test
	void waitingEndsWhenWaitTimePasses() {
		LockEngine a = this.clients.newService();
		LockEngine b = this.clients.newService();
		try (LockHandle held = a.lock("busy", Duration.ZERO)) {
			long start = System.nanoTime();
			assertThat(b.tryLock("busy", Duration.ofMillis(300), null)).isEmpty();
			long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			assertThat(waitedMillis).isGreaterThanOrEqualTo(300).isLessThan(300 + 2000);
			assertThat(b.tryLock("busy", Duration.ZERO, null)).isEmpty();
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> b.lock("busy", Duration.ZERO))
				.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("busy"));
		}
		assertThat(b.trackedLockCount()).isZero();
	}

	@Test
	void aWaiterOnAnotherInstanceIsWokenByTheRelease() throws Exception {
		LockEngine a = this.clients.newService();
		LockEngine b = this.clients.newService();
		LockHandle held = a.lock("handoff", Duration.ZERO);
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			CountDownLatch waiting = new CountDownLatch(1);
			Future<Boolean> waiter = pool.submit(() -> {
				waiting.countDown();
				try (LockHandle next = b.lock("handoff", Duration.ofSeconds(20))) {
					return next.isHeld();
				}
			});
			waiting.await(10, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(5)).until(() -> redis.command("GET", "distlock:{handoff}").endsWith("+"));
			held.close();
			assertThat(waiter.get(20, TimeUnit.SECONDS)).isTrue();
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void executeLockedAndRunLockedReleaseAfterTheAction() {
		LockEngine service = this.clients.newService();
		assertThat(service.executeLocked("exec", Duration.ZERO, () -> service.isLocked("exec"))).isTrue();
		assertThat(service.isLocked("exec")).isFalse();
		AtomicInteger runs = new AtomicInteger();
		service.runLocked("exec", Duration.ZERO, runs::incrementAndGet);
		assertThat(runs).hasValue(1);
		assertThat(service.isLocked("exec")).isFalse();
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> service.runLocked("exec", Duration.ZERO, () -> {
				throw new IllegalStateException("boom");
			}));
		assertThat(service.isLocked("exec")).isFalse();
	}

	@Test
	void extendResetsTheLeaseOfAHeldLock() {
		LockEngine service = this.clients.newService();
		LockHandle handle = service.tryLock("extend", Duration.ZERO, Duration.ofMillis(500)).orElseThrow();
		assertThat(handle.extend(Duration.ofSeconds(30))).isTrue();
		assertThat(Long.parseLong(redis.command("PTTL", "distlock:{extend}"))).isGreaterThan(10_000);
		handle.close();
		assertThat(handle.extend(Duration.ofSeconds(30))).isFalse();
	}

	@Test
	void closeWithMinHoldTimeLeavesTheLockUntilThen() {
		LockEngine service = this.clients.newService();
		LockHandle handle = service.lock("min-hold", Duration.ZERO);
		handle.close(Duration.ofMillis(800));
		assertThat(service.isLocked("min-hold")).isTrue();
		assertThat(service.tryLock("min-hold", Duration.ZERO, null)).isEmpty();
		assertThat(service.tryLock("min-hold", Duration.ofSeconds(10), null)).isPresent();
	}

	@Test
	void keysCarryThePrefixAndAHashTagNoInputCanChoose() {
		LockEngine service = this.clients.newService(RedisLockSettings.defaults().withKeyPrefix("app:locks:"));
		try (LockHandle handle = service.lock("stock:{apple}", Duration.ZERO)) {
			// The fencing key is written when the token is first read.
			assertThat(redis.keys("*")).containsExactly("app:locks:{stock:%7Bapple%7D}");
			assertThat(handle.fencingToken()).isPositive();
			assertThat(redis.keys("*")).containsExactlyInAnyOrder("app:locks:{stock:%7Bapple%7D}",
					"app:locks:{stock:%7Bapple%7D}:fence");
		}
		assertThat(service.isLocked("stock:{apple}")).isFalse();
	}

	@Test
	void badArgumentsAreRejectedWithTheirName() {
		LockEngine service = this.clients.newService();
		assertThatIllegalArgumentException().isThrownBy(() -> service.tryLock("", Duration.ZERO, null))
			.withMessageContaining("lockId");
		assertThatIllegalArgumentException().isThrownBy(() -> service.tryLock("x", Duration.ofSeconds(-1), null))
			.withMessageContaining("waitTime");
		assertThatIllegalArgumentException().isThrownBy(() -> service.tryLock("x", Duration.ZERO, Duration.ZERO))
			.withMessageContaining("leaseTime");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RedisEngines.blocking(new StringRedisTemplate(this.clients.newConnectionFactory()),
					RedisLockSettings.defaults().withKeyPrefix("a{b}")))
			.withMessageContaining("key-prefix");
	}

	@Test
	void anInterruptedWaiterThrowsAndLeavesNothingBehind() throws Exception {
		LockEngine a = this.clients.newService();
		LockEngine b = this.clients.newService();
		try (LockHandle held = a.lock("interrupt", Duration.ZERO)) {
			CountDownLatch started = new CountDownLatch(1);
			Thread waiter = new Thread(() -> {
				started.countDown();
				try {
					b.tryLock("interrupt", Duration.ofSeconds(30), null);
				}
				catch (LockNotAcquiredException ex) {
					if (Thread.currentThread().isInterrupted()) {
						return;
					}
				}
				throw new AssertionError("expected an interrupt to end the wait");
			});
			List<Throwable> failures = new ArrayList<>();
			waiter.setUncaughtExceptionHandler((t, ex) -> failures.add(ex));
			waiter.start();
			started.await(10, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(5)).until(() -> b.trackedLockCount() == 1);
			waiter.interrupt();
			waiter.join(10_000);
			assertThat(waiter.isAlive()).isFalse();
			assertThat(failures).isEmpty();
		}
		assertThat(b.trackedLockCount()).isZero();
		assertThat(a.isLocked("interrupt")).isFalse();
	}

	@Test
	void anInterruptedHolderStillReleases() {
		LockEngine service = this.clients.newService();
		LockHandle handle = service.lock("interrupted-holder", Duration.ZERO);
		Thread.currentThread().interrupt();
		try {
			handle.close();
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(service.isLocked("interrupted-holder")).isFalse();
	}

	@Test
	void shutdownReleasesHeldLocks() {
		LockEngine service = this.clients.newService();
		LockHandle handle = service.lock("shutdown", Duration.ZERO);
		service.destroy();
		assertThat(redis.keys("distlock:{shutdown}")).isEmpty();
		assertThat(handle.isHeld()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
	}

	@Test
	void anAcquireWhoseReplyComesAfterItsLeaseCountsAsNotAcquired() throws Exception {
		LockEngine service = this.clients.newService();
		service.isLocked("late");
		ExecutorService resumer = Executors.newSingleThreadExecutor();
		redis.server().pause();
		try {
			// Redis applies the acquire only after the pause, which outlasts the 200ms
			// lease.
			resumer.submit(() -> {
				java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(600));
				redis.server().resume();
			});
			assertThat(service.tryLock("late", Duration.ZERO, Duration.ofMillis(200))).isEmpty();
		}
		finally {
			resumer.shutdown();
			resumer.awaitTermination(10, TimeUnit.SECONDS);
			redis.server().resume();
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> !service.isLocked("late"));
		assertThat(service.trackedLockCount()).isZero();
		try (LockHandle handle = service.lock("late", Duration.ZERO)) {
			assertThat(handle.isHeld()).isTrue();
		}
	}

	@Test
	void scriptFlushBetweenOperationsIsHarmless() {
		LockEngine service = this.clients.newService();
		for (int i = 0; i < 3; i++) {
			LockHandle handle = service.lock("flushed", Duration.ZERO);
			redis.command("SCRIPT", "FLUSH");
			assertThat(handle.extend(Duration.ofSeconds(10))).isTrue();
			redis.command("SCRIPT", "FLUSH");
			handle.close();
			redis.command("SCRIPT", "FLUSH");
		}
		assertThat(service.isLocked("flushed")).isFalse();
	}

	@Test
	void aWaiterDoesNotPollWhileTheHolderWorks() throws Exception {
		LockEngine a = this.clients.newService();
		LockEngine b = this.clients.newService();
		a.isLocked("quiet");
		b.isLocked("quiet");
		LockHandle held = a.lock("quiet", Duration.ZERO);
		redis.command("CONFIG", "RESETSTAT");
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			Future<Boolean> waiter = pool.submit(() -> {
				try (LockHandle next = b.lock("quiet", Duration.ofSeconds(30))) {
					return next.isHeld();
				}
			});
			// Hold for two seconds while the waiter waits: a poller would send hundreds
			// of attempts.
			await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> true);
			held.close();
			assertThat(waiter.get(20, TimeUnit.SECONDS)).isTrue();
		}
		finally {
			pool.shutdownNow();
		}
		String stats = redis.command("INFO", "commandstats");
		long scriptCalls = stats.lines()
			.filter((line) -> line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:"))
			.mapToLong((line) -> Long.parseLong(line.replaceAll(".*calls=(\\d+),.*", "$1")))
			.sum();
		// First attempt, at most a few fallback re-checks (one per 0.5-1s), release, the
		// winning acquire.
		assertThat(scriptCalls).isLessThan(10);
	}

	@Test
	void renewalThatFindsTheKeyTakenPublishesLockLost() throws Exception {
		LockEngine service = this.clients
			.newService(RedisLockSettings.defaults().withLeaseTime(Duration.ofMillis(600)));
		java.util.concurrent.BlockingQueue<LostLock> events = new java.util.concurrent.LinkedBlockingQueue<>();
		service.setLockLostListener(events::add);
		service.isLocked("stolen");
		LockHandle handle = service.lock("stolen", Duration.ZERO);
		// Another owner takes the key behind our back (as after a failover or an
		// operator's DEL).
		redis.command("SET", "distlock:{stolen}", "someone-else", "PX", "60000");
		LostLock event = events.poll(10, TimeUnit.SECONDS);
		assertThat(event).isNotNull();
		assertThat(event.lockId()).isEqualTo("stolen");
		assertThat(event.fencingToken()).isEqualTo(handle.fencingToken());
		assertThat(event.reason()).contains("owned by another instance");
		assertThat(handle.isHeld()).isFalse();
		assertThat(service.locksLost()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
		assertThat(redis.command("GET", "distlock:{stolen}")).isEqualTo("someone-else");
	}

	@Test
	void lossIsSignalledWhenTheLeaseEndsEvenIfRenewalHangs() throws Exception {
		LockEngine service = this.clients
			.newService(RedisLockSettings.defaults().withLeaseTime(Duration.ofMillis(600)));
		CountDownLatch lost = new CountDownLatch(1);
		service.setLockLostListener((event) -> lost.countDown());
		service.isLocked("hang");
		LockHandle handle = service.lock("hang", Duration.ZERO);
		redis.server().pause();
		try {
			// The renewal call blocks (command timeout 2s); the lease of 600ms ends
			// first.
			assertThat(lost.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(handle.isHeld()).isFalse();
		}
		finally {
			redis.server().resume();
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
		await().atMost(Duration.ofSeconds(5)).until(() -> !service.isLocked("hang"));
	}

	@Test
	void heldLocksAndRemainingLeaseDescribeTheCurrentState() {
		LockEngine service = this.clients.newService();
		LockEngine other = this.clients.newService();
		assertThat(service.heldLocks()).isEmpty();
		assertThat(other.remainingLease("described")).isEmpty();
		try (LockHandle outer = service.lock("described", Duration.ZERO);
				LockHandle inner = service.lock("described", Duration.ZERO)) {
			// Shown once read (issued on the first read).
			long token = outer.fencingToken();
			assertThat(service.heldLocks()).singleElement().satisfies((info) -> {
				assertThat(info.lockId()).isEqualTo("described");
				assertThat(info.fencingToken()).isEqualTo(token);
				assertThat(info.depth()).isEqualTo(2);
				assertThat(info.autoRenewed()).isTrue();
				assertThat(info.renewalFailing()).isFalse();
				assertThat(info.leaseRemaining()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
				assertThat(info.heldSince()).isBeforeOrEqualTo(java.time.Instant.now());
			});
			assertThat(other.heldLocks()).isEmpty();
			assertThat(other.remainingLease("described")).hasValueSatisfying(
					(remaining) -> assertThat(remaining).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30)));
		}
		assertThat(service.heldLocks()).isEmpty();
	}

	/** A read-modify-write that loses updates whenever two threads run it at once. */
	static final class UnsafeCounter {

		volatile int value;

		void incrementSlowly() {
			int read = this.value;
			Thread.yield();
			this.value = read + 1;
		}

	}

}
