package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockHandle;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code SCRIPT FLUSH} before every kind of lock operation: each script is re-sent by
 * {@code EVAL} after the {@code NOSCRIPT} reply, so no caller ever sees that failure.
 * Every test also checks that Redis really answered {@code NOSCRIPT}, so the fallback
 * path was exercised.
 */
class ScriptFlushTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@BeforeEach
	void newClients() {
		redis.command("CONFIG", "RESETSTAT");
	}

	@Test
	void acquireReleaseExtendAndMinHoldTimeAfterAFlush() {
		LockEngine service = this.clients.newService();
		long lastToken = 0;
		for (int i = 0; i < 3; i++) {
			flush();
			LockHandle handle = service.lock("flushed", Duration.ZERO);
			assertThat(handle.fencingToken()).isGreaterThan(lastToken);
			lastToken = handle.fencingToken();
			flush();
			assertThat(handle.extend(Duration.ofSeconds(20))).isTrue();
			assertThat(service.remainingLease("flushed"))
				.hasValueSatisfying((lease) -> assertThat(lease).isGreaterThan(Duration.ofSeconds(15)));
			flush();
			handle.close();
			assertThat(service.isLocked("flushed")).isFalse();
		}
		flush();
		LockHandle handle = service.lock("held-at-least", Duration.ZERO);
		flush();
		handle.close(Duration.ofSeconds(20));
		assertThat(service.remainingLease("held-at-least"))
			.hasValueSatisfying((lease) -> assertThat(lease).isGreaterThan(Duration.ofSeconds(15)));
		assertThat(service.tryLock("held-at-least", Duration.ZERO, null)).isEmpty();
		assertRedisAnsweredNoscript();
	}

	@Test
	void renewalAfterAFlushKeepsTheLock() {
		LockEngine service = this.clients
			.newService(RedisLockSettings.defaults().withLeaseTime(Duration.ofMillis(1500)));
		service.isLocked("renewed");
		LockHandle handle = service.lock("renewed", Duration.ZERO);
		long start = System.nanoTime();
		// Three leases long, flushing every 100ms: every renewal (every 500ms) meets an
		// empty cache.
		while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(4500)) {
			flush();
			await().pollDelay(Duration.ofMillis(100)).atMost(Duration.ofSeconds(1)).until(() -> true);
		}
		assertThat(handle.isHeld()).isTrue();
		assertThat(service.renewalFailures()).isZero();
		assertThat(service.locksLost()).isZero();
		assertThat(service.isLocked("renewed")).isTrue();
		handle.close();
		assertRedisAnsweredNoscript();
	}

	@Test
	void handOverToALocalWaiterAfterAFlush() throws Exception {
		LockEngine service = this.clients.newService();
		LockHandle first = service.lock("handed", Duration.ZERO);
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			AtomicReference<Thread> waiting = new AtomicReference<>();
			Future<Long> waiter = pool.submit(() -> {
				waiting.set(Thread.currentThread());
				try (LockHandle next = service.lock("handed", Duration.ofSeconds(30))) {
					return next.fencingToken();
				}
			});
			// A local waiter does not compete in Redis while a local holder lives: it
			// parks in the queue.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> waiting.get() != null && EngineProbe.isQueuedWaiter(waiting.get()));
			flush();
			first.close();
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isGreaterThan(first.fencingToken());
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(service.isLocked("handed")).isFalse();
		assertThat(service.trackedLockCount()).isZero();
		assertRedisAnsweredNoscript();
	}

	@Test
	void aWaiterOnAnotherInstanceIsWokenByAReleaseAfterAFlush() throws Exception {
		LockEngine a = this.clients.newService();
		LockEngine b = this.clients.newService();
		LockHandle first = a.lock("announced", Duration.ZERO);
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			Future<Long> waiter = pool.submit(() -> {
				try (LockHandle next = b.lock("announced", Duration.ofSeconds(30))) {
					return next.fencingToken();
				}
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> redis.command("GET", "distlock:{announced}").endsWith("+"));
			flush();
			first.close();
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isGreaterThan(first.fencingToken());
		}
		finally {
			pool.shutdownNow();
		}
		assertRedisAnsweredNoscript();
	}

	@Test
	void contendedLockingWhileScriptsAreFlushedAllTheTime() throws Exception {
		LockEngine[] instances = { this.clients.newService(), this.clients.newService() };
		AtomicBoolean flushing = new AtomicBoolean(true);
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger acquisitions = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(5);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		try {
			Future<?> flusher = pool.submit(() -> {
				start.await();
				while (flushing.get()) {
					flush();
					Thread.sleep(2);
				}
				return null;
			});
			for (int t = 0; t < 4; t++) {
				LockEngine instance = instances[t % 2];
				workers.add(pool.submit(() -> {
					start.await();
					for (int i = 0; i < 100; i++) {
						try (LockHandle handle = instance.lock("busy", Duration.ofSeconds(30))) {
							if (holders.incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
							acquisitions.incrementAndGet();
							holders.decrementAndGet();
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> worker : workers) {
				// Any NOSCRIPT reaching a caller fails the worker, and get() rethrows it.
				worker.get(120, TimeUnit.SECONDS);
			}
			flushing.set(false);
			flusher.get(10, TimeUnit.SECONDS);
		}
		finally {
			flushing.set(false);
			pool.shutdownNow();
		}
		assertThat(overlaps).hasValue(0);
		assertThat(acquisitions).hasValue(400);
		assertThat(redis.keys("distlock:{busy}")).isEmpty();
		assertRedisAnsweredNoscript();
	}

	private static void flush() {
		redis.command("SCRIPT", "FLUSH");
	}

	/**
	 * Redis counts every error reply by its prefix since the last
	 * {@code CONFIG RESETSTAT}.
	 */
	private static void assertRedisAnsweredNoscript() {
		assertThat(redis.command("INFO", "errorstats")).contains("errorstat_NOSCRIPT:count=");
	}

}
