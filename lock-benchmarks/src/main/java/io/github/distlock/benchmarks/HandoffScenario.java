package io.github.distlock.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 4: a holder on one instance, a waiter on another. The gap is measured from the
 * end of the holder's critical section (just before its release call) to the start of the
 * waiter's.
 */
final class HandoffScenario implements Scenario {

	private static final String LOCK_ID = "handoff";

	@Override
	public String name() {
		return "handoff";
	}

	@Override
	public String description() {
		return "holder on one instance, waiter on another: release-to-acquisition gap";
	}

	@Override
	public Trial open(LockImplementation implementation, Bench bench) {
		BenchmarkSettings settings = bench.settings();
		return new Trial(implementation, bench) {

			private final LockClient holder = connect();

			private final LockClient waiter = connect();

			private final ExecutorService waiterThread = Executors.newSingleThreadExecutor(runnable -> {
				Thread thread = new Thread(runnable, "handoff-waiter");
				thread.setDaemon(true);
				return thread;
			});

			private final Latencies gaps = new Latencies();

			@Override
			void warmUp() {
				for (int i = 0; i < settings.handoffWarmup(); i++) {
					handoff(holder, waiter, waiterThread, implementation, settings);
				}
			}

			@Override
			protected void slice(int index, int count) {
				int handoffs = settings.handoffs() / count + (index < settings.handoffs() % count ? 1 : 0);
				for (int i = 0; i < handoffs; i++) {
					gaps.add(handoff(holder, waiter, waiterThread, implementation, settings));
				}
			}

			@Override
			Map<String, Object> metrics() {
				Latencies.Summary summary = gaps.summary();
				Map<String, Object> metrics = new LinkedHashMap<>();
				metrics.put("handoffs", summary.count());
				metrics.put("gapP50Us", Report.micros(summary.p50Nanos()));
				metrics.put("gapP99Us", Report.micros(summary.p99Nanos()));
				metrics.put("gapMaxUs", Report.micros(summary.maxNanos()));
				// Two acquisitions per hand-over: the holder's and the waiter's.
				metrics.putAll(costs.perOperation(2L * summary.count()));
				return metrics;
			}

			@Override
			public void close() {
				waiterThread.shutdownNow();
				super.close();
			}
		};
	}

	private static long handoff(LockClient holder, LockClient waiter, ExecutorService waiterThread,
			LockImplementation implementation, BenchmarkSettings settings) {
		AtomicLong releasedAt = new AtomicLong();
		AtomicLong acquiredAt = new AtomicLong();
		@SuppressWarnings("unchecked")
		Future<Boolean>[] waiting = new Future[1];
		boolean held = holder.tryRunLocked(LOCK_ID, () -> {
			CountDownLatch started = new CountDownLatch(1);
			waiting[0] = waiterThread.submit(() -> {
				started.countDown();
				return waiter.tryRunLocked(LOCK_ID, () -> acquiredAt.set(System.nanoTime()));
			});
			await(started);
			// Lets the waiter find the lock taken and settle into waiting before the
			// release.
			sleep(settings.handoffHold().toMillis());
			releasedAt.set(System.nanoTime());
		});
		Scenario.require(held, implementation.name(), LOCK_ID);
		try {
			if (!waiting[0].get(settings.waitTime().toMillis() * 2, TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException(
						implementation.name() + " waiter did not get the released lock within " + settings.waitTime());
			}
		}
		catch (Exception e) {
			throw new IllegalStateException(implementation.name() + " hand-over failed: " + e, e);
		}
		return acquiredAt.get() - releasedAt.get();
	}

	private static void await(CountDownLatch latch) {
		try {
			if (!latch.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("handoff waiter thread did not start within 10 s");
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", e);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", e);
		}
	}

}
