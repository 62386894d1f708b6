package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Interrupts: a waiter gives up at once and never keeps the lock, a holder's release
 * completes although it was interrupted, and random interrupts leave no key, entry or
 * renewal behind.
 */
class InterruptTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void anInterruptedLocalWaiterThrowsAndTheLockGoesToTheNextOne() throws Exception {
		LockEngine service = this.clients.newService();
		LockHandle held = service.lock("queue", Duration.ZERO);
		AtomicReference<Throwable> outcome = new AtomicReference<>();
		Thread interrupted = waiter(service, "queue", outcome);
		awaitParked(interrupted);
		AtomicReference<Throwable> nextOutcome = new AtomicReference<>();
		Thread next = waiter(service, "queue", nextOutcome);
		awaitParked(next);
		interrupted.interrupt();
		interrupted.join(10_000);
		assertThat(interrupted.isAlive()).isFalse();
		assertThat(outcome.get()).isInstanceOf(LockNotAcquiredException.class)
			.hasMessageContaining("Interrupted while waiting for lock 'queue'")
			.hasCauseInstanceOf(InterruptedException.class);
		held.close();
		next.join(10_000);
		assertThat(nextOutcome.get()).isNull();
		assertThat(service.isLocked("queue")).isFalse();
		assertThat(service.trackedLockCount()).isZero();
		assertThat(service.pendingRenewalTasks()).isZero();
	}

	@Test
	void anInterruptedHolderHandsTheLockOverAndKeepsItsInterrupt() throws Exception {
		LockEngine service = this.clients.newService();
		LockHandle held = service.lock("hand-over", Duration.ZERO);
		AtomicReference<Throwable> nextOutcome = new AtomicReference<>();
		Thread next = waiter(service, "hand-over", nextOutcome);
		awaitParked(next);
		Thread.currentThread().interrupt();
		try {
			held.close();
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		next.join(10_000);
		assertThat(nextOutcome.get()).isNull();
		assertThat(service.isLocked("hand-over")).isFalse();
		assertThat(service.pendingRenewalTasks()).isZero();
	}

	@Test
	void randomInterruptsLeaveNoLockKeyEntryOrRenewalBehind() throws Exception {
		LockEngine[] instances = { this.clients.newService(), this.clients.newService() };
		for (LockEngine instance : instances) {
			instance.isLocked("connect");
		}
		int ids = 4;
		int threads = 6;
		int interrupts = 2000;
		AtomicReferenceArray<Thread> holders = new AtomicReferenceArray<>(ids);
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger acquisitions = new AtomicInteger();
		AtomicInteger interruptedCalls = new AtomicInteger();
		Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
		AtomicBoolean running = new AtomicBoolean(true);
		CountDownLatch started = new CountDownLatch(threads);
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			LockEngine instance = instances[t % instances.length];
			Thread worker = new Thread(() -> {
				started.countDown();
				while (running.get()) {
					int id = ThreadLocalRandom.current().nextInt(ids);
					try (LockHandle handle = instance.lock("race-" + id, Duration.ofSeconds(20))) {
						if (!holders.compareAndSet(id, null, Thread.currentThread())) {
							overlaps.incrementAndGet();
						}
						acquisitions.incrementAndGet();
						if (ThreadLocalRandom.current().nextBoolean()) {
							LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(200_000));
						}
						holders.compareAndSet(id, Thread.currentThread(), null);
					}
					catch (LockNotAcquiredException ex) {
						if (ex.getCause() instanceof InterruptedException) {
							interruptedCalls.incrementAndGet();
						}
						else {
							unexpected.add(ex);
						}
					}
					catch (RuntimeException | Error ex) {
						unexpected.add(ex);
					}
					// The interrupt is consumed here, before the next attempt.
					Thread.interrupted();
				}
			}, "race-" + t);
			workers.add(worker);
			worker.start();
		}
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		List<ILoggingEvent> warnings;
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			for (int i = 0; i < interrupts; i++) {
				workers.get(random.nextInt(threads)).interrupt();
				LockSupport.parkNanos(random.nextLong(1_000_000));
			}
			running.set(false);
			for (Thread worker : workers) {
				worker.join(30_000);
				assertThat(worker.isAlive()).as("%s still running", worker.getName()).isFalse();
			}
			warnings = logs.atLeast(Level.WARN, "io.github.distlock");
		}
		assertThat(unexpected).isEmpty();
		// An interrupt is no failure: no "could not release" (the lock would stay until
		// its lease ends).
		assertThat(warnings).extracting(CapturedLogs::fullText).isEmpty();
		assertThat(overlaps).hasValue(0);
		assertThat(interruptedCalls.get()).isPositive();
		assertThat(acquisitions.get()).isPositive();
		// Clean-ups of acquires interrupted in flight run on the renewal thread: give
		// them a moment.
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(redis.keys("distlock:{race-*}"))
				.allMatch((key) -> key.endsWith(":fence") || key.endsWith(":released"));
			for (LockEngine instance : instances) {
				assertThat(instance.trackedLockCount()).isZero();
				assertThat(instance.pendingRenewalTasks()).isZero();
			}
		});
	}

	private static Thread waiter(LockEngine service, String lockId, AtomicReference<Throwable> outcome) {
		Thread thread = new Thread(() -> {
			try (LockHandle handle = service.lock(lockId, Duration.ofSeconds(60))) {
				assertThat(handle.isHeld()).isTrue();
			}
			catch (Throwable ex) {
				outcome.set(ex);
			}
		});
		thread.start();
		return thread;
	}

	/** Parked in the queue of the lock: its blocker is its waiter. */
	private static void awaitParked(Thread thread) {
		await().atMost(Duration.ofSeconds(10)).until(() -> EngineProbe.isQueuedWaiter(thread));
	}

}
