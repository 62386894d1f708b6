package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Scenario 1: one thread, one id, lock + unlock in a loop. */
final class UncontendedScenario implements Scenario {

    private static final String LOCK_ID = "uncontended";

    @Override
    public String name() {
        return "uncontended";
    }

    @Override
    public String description() {
        return "1 thread, one id, lock + unlock: cycles/s and latency per cycle";
    }

    @Override
    public Map<String, Object> run(LockImplementation implementation, Bench bench) {
        try (LockClient client = bench.connect(implementation)) {
            cycles(client, implementation, bench.settings().warmup(), new Latencies());
            Latencies latencies = new Latencies();
            CostMeter.Snapshot before = bench.meter().snapshot();
            long start = System.nanoTime();
            long cycles = cycles(client, implementation, bench.settings().measure(), latencies);
            long elapsed = System.nanoTime() - start;
            CostMeter.Snapshot after = bench.meter().snapshot();
            Latencies.Summary summary = latencies.summary();
            Map<String, Object> metrics = new LinkedHashMap<>();
            metrics.put("cycles", cycles);
            metrics.put("cyclesPerSecond", Report.round(cycles * 1e9 / elapsed, 0));
            metrics.put("p50Us", Report.micros(summary.p50Nanos()));
            metrics.put("p99Us", Report.micros(summary.p99Nanos()));
            metrics.putAll(bench.meter().perOperation(before, after, cycles));
            return metrics;
        }
    }

    private static long cycles(LockClient client, LockImplementation implementation, Duration window,
            Latencies latencies) {
        long deadline = System.nanoTime() + window.toNanos();
        long cycles = 0;
        while (System.nanoTime() - deadline < 0) {
            long start = System.nanoTime();
            Scenario.require(client.tryRunLocked(LOCK_ID, NOTHING), implementation.name(), LOCK_ID);
            latencies.add(System.nanoTime() - start);
            cycles++;
        }
        return cycles;
    }
}
