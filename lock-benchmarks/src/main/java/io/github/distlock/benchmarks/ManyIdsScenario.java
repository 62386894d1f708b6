package io.github.distlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scenario 5: many distinct ids, each acquired and released once, by N threads of one instance; then the heap the
 * still-open instance retains, measured after full GCs, against the heap before.
 */
final class ManyIdsScenario implements Scenario {

    @Override
    public String name() {
        return "many-ids";
    }

    @Override
    public String description() {
        return "100,000 distinct ids acquired and released once each: throughput and heap retained";
    }

    @Override
    public Map<String, Object> run(LockImplementation implementation, Bench bench) {
        BenchmarkSettings settings = bench.settings();
        try (LockClient client = bench.connect(implementation)) {
            lockEach(client, implementation, settings, "warm-", Math.min(2_000, settings.manyIds()));
            long heapBefore = usedHeapAfterGc();
            CostMeter.Snapshot before = bench.meter().snapshot();
            long start = System.nanoTime();
            lockEach(client, implementation, settings, "many-", settings.manyIds());
            long elapsed = System.nanoTime() - start;
            CostMeter.Snapshot after = bench.meter().snapshot();
            long heapAfter = usedHeapAfterGc();
            Map<String, Object> metrics = new LinkedHashMap<>();
            metrics.put("ids", settings.manyIds());
            metrics.put("threads", settings.threads());
            metrics.put("cyclesPerSecond", Report.round(settings.manyIds() * 1e9 / elapsed, 0));
            metrics.put("heapBeforeMb", Report.round(heapBefore / 1048576.0, 1));
            metrics.put("heapAfterMb", Report.round(heapAfter / 1048576.0, 1));
            metrics.put("retainedMb", Report.round((heapAfter - heapBefore) / 1048576.0, 1));
            metrics.putAll(bench.meter().perOperation(before, after, settings.manyIds()));
            return metrics;
        }
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

    /** Used heap after full collections, once it stops shrinking (at most five). */
    static long usedHeapAfterGc() {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
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
