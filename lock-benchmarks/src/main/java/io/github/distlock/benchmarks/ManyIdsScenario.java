package io.github.distlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scenario 5: many distinct ids, each acquired and released once, by N threads of one
 * instance; then the heap the still-open instance retains, measured after full GCs,
 * against the heap before.
 */
final class ManyIdsScenario implements Scenario {

	static final long SETTLE_MILLIS = 2_000;

	@Override
	public String name() {
		return "many-ids";
	}

	@Override
	public String description() {
		return "100,000 distinct ids acquired and released once each: throughput and heap retained";
	}

	/** One slice: the ids are acquired once, and the heap is measured around them. */
	@Override
	public int slices(BenchmarkSettings settings) {
		return 1;
	}

	@Override
	public Trial open(LockImplementation implementation, Bench bench) {
		BenchmarkSettings settings = bench.settings();
		return new Trial(implementation, bench) {

			private final LockClient client = connect();

			private long heapBefore;

			private long heapAfter;

			private long elapsedNanos;

			@Override
			void warmUp() {
				lockEach(client, implementation, settings, "warm-", Math.min(2_000, settings.manyIds()));
			}

			@Override
			protected void slice(int index, int count) {
				heapBefore = usedHeapAfterGc();
				long start = System.nanoTime();
				lockEach(client, implementation, settings, "many-", settings.manyIds());
				elapsedNanos = System.nanoTime() - start;
				// Transient state that background tasks clear within a second or so
				// (timers, sweeps) is not a leak.
				pause(SETTLE_MILLIS);
				heapAfter = usedHeapAfterGc();
			}

			@Override
			Map<String, Object> metrics() {
				Map<String, Object> metrics = new LinkedHashMap<>();
				metrics.put("ids", settings.manyIds());
				metrics.put("threads", settings.threads());
				metrics.put("cyclesPerSecond", Report.round(settings.manyIds() * 1e9 / elapsedNanos, 0));
				metrics.put("heapBeforeMb", Report.round(heapBefore / 1048576.0, 1));
				metrics.put("heapAfterMb", Report.round(heapAfter / 1048576.0, 1));
				metrics.put("retainedMb", Report.round((heapAfter - heapBefore) / 1048576.0, 1));
				metrics.putAll(costs.perOperation(settings.manyIds()));
				return metrics;
			}
		};
	}

	private static void lockEach(LockClient client, LockImplementation implementation, BenchmarkSettings settings,
			String prefix, int ids) {
		AtomicInteger next = new AtomicInteger();
		Workers.run("many-ids", settings.threads(), settings.waitTime().toMillis() * 10, thread -> {
			for (int id = next.getAndIncrement(); id < ids; id = next.getAndIncrement()) {
				String lockId = prefix + id;
				Scenario.require(client.tryRunLocked(lockId, NOTHING), implementation.name(), lockId);
			}
		});
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	/** Used heap after full collections, once it stops shrinking (at most five). */
	static long usedHeapAfterGc() {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			System.gc();
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				break;
			}
			long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
			if (now >= used) {
				return Math.min(now, used);
			}
			used = now;
		}
		return used;
	}

}
