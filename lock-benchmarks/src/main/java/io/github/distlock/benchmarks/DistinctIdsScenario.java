package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Scenario 2: N threads of one instance, each locking its own id. */
final class DistinctIdsScenario implements Scenario {

    @Override
    public String name() {
        return "distinct-ids";
    }

    @Override
    public String description() {
        return "16 threads of one instance, each its own id: total cycles/s";
    }

    @Override
    public Map<String, Object> run(LockImplementation implementation, Bench bench) {
        BenchmarkSettings settings = bench.settings();
        try (LockClient client = bench.connect(implementation)) {
            phase(client, implementation, settings, settings.warmup(), new Latencies[settings.threads()]);
            Latencies[] latencies = new Latencies[settings.threads()];
            CostMeter.Snapshot before = bench.meter().snapshot();
            long start = System.nanoTime();
            long cycles = phase(client, implementation, settings, settings.measure(), latencies);
            long elapsed = System.nanoTime() - start;
            CostMeter.Snapshot after = bench.meter().snapshot();
            Latencies all = new Latencies();
            for (Latencies thread : latencies) {
                all.addAll(thread);
            }
            Latencies.Summary summary = all.summary();
            Map<String, Object> metrics = new LinkedHashMap<>();
            metrics.put("threads", settings.threads());
            metrics.put("cycles", cycles);
            metrics.put("cyclesPerSecond", Report.round(cycles * 1e9 / elapsed, 0));
            metrics.put("p50Us", Report.micros(summary.p50Nanos()));
            metrics.put("p99Us", Report.micros(summary.p99Nanos()));
            metrics.putAll(bench.meter().perOperation(before, after, cycles));
            return metrics;
        }
    }

    private static long phase(LockClient client, LockImplementation implementation, BenchmarkSettings settings,
            Duration window, Latencies[] latencies) {
        AtomicLong cycles = new AtomicLong();
        long deadline = System.nanoTime() + window.toNanos();
        Workers.run("distinct-ids", settings.threads(), settings.phaseTimeoutMillis(window), thread -> {
            String lockId = "distinct-" + thread;
            Latencies mine = new Latencies();
            latencies[thread] = mine;
            while (System.nanoTime() - deadline < 0) {
                long start = System.nanoTime();
                Scenario.require(client.tryRunLocked(lockId, NOTHING), implementation.name(), lockId);
                mine.add(System.nanoTime() - start);
            }
            cycles.addAndGet(mine.count());
        });
        return cycles.get();
    }
}
