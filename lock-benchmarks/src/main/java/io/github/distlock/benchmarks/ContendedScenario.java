package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 3: N threads spread over several instances, all on one id, a non-atomic increment inside. Checks mutual
 * exclusion (count == acquisitions, no thread ever inside together with another) and measures how fairly the lock
 * circulates.
 */
final class ContendedScenario implements Scenario {

    private static final String LOCK_ID = "contended";

    @Override
    public String name() {
        return "contended";
    }

    @Override
    public String description() {
        return "16 threads over 2 instances on one id, non-atomic increment inside";
    }

    @Override
    public Map<String, Object> run(LockImplementation implementation, Bench bench) {
        BenchmarkSettings settings = bench.settings();
        List<LockClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < settings.instances(); i++) {
                clients.add(bench.connect(implementation));
            }
            phase(clients, settings, settings.warmup());
            CostMeter.Snapshot before = bench.meter().snapshot();
            Phase measured = phase(clients, settings, settings.measure());
            CostMeter.Snapshot after = bench.meter().snapshot();
            return metrics(measured, settings, bench.meter().perOperation(before, after, measured.acquisitions()));
        } finally {
            clients.forEach(LockClient::close);
        }
    }

    private static Map<String, Object> metrics(Phase phase, BenchmarkSettings settings, Map<String, Object> costs) {
        Latencies waits = new Latencies();
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < phase.perThread().length; i++) {
            waits.addAll(phase.waits()[i]);
            min = Math.min(min, phase.perThread()[i]);
            max = Math.max(max, phase.perThread()[i]);
        }
        Latencies.Summary wait = waits.summary();
        CriticalSection section = phase.section();
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("threads", settings.threads());
        metrics.put("instances", settings.instances());
        metrics.put("acquisitions", phase.acquisitions());
        metrics.put("acquisitionsPerSecond",
                Report.round(section.inWindow.get() / (settings.measure().toNanos() / 1e9), 0));
        metrics.put("movedToOtherThreadPercent",
                Report.round(100.0 * section.moved.get() / Math.max(1, phase.acquisitions()), 1));
        metrics.put("waitP50Ms", Report.millis(wait.p50Nanos()));
        metrics.put("waitP99Ms", Report.millis(wait.p99Nanos()));
        metrics.put("waitMaxMs", Report.millis(wait.maxNanos()));
        metrics.put("perThreadMinAcquisitions", min);
        metrics.put("perThreadMaxAcquisitions", max);
        metrics.put("timeouts", phase.timeouts());
        metrics.put("finalCount", section.count);
        metrics.put("overlaps", section.overlaps.get());
        metrics.put("mutualExclusion", section.count == phase.acquisitions() && section.overlaps.get() == 0);
        metrics.putAll(costs);
        return metrics;
    }

    private static Phase phase(List<LockClient> clients, BenchmarkSettings settings, Duration window) {
        int threads = settings.threads();
        long[] perThread = new long[threads];
        Latencies[] waits = new Latencies[threads];
        AtomicLong timeouts = new AtomicLong();
        long deadline = System.nanoTime() + window.toNanos();
        CriticalSection section = new CriticalSection(deadline);
        Workers.run("contended", threads, settings.phaseTimeoutMillis(window), thread -> {
            LockClient client = clients.get(thread % clients.size());
            Latencies mine = new Latencies();
            waits[thread] = mine;
            Runnable body = () -> section.enter(thread);
            while (System.nanoTime() - deadline < 0) {
                long start = System.nanoTime();
                if (client.tryRunLocked(LOCK_ID, body)) {
                    mine.add(System.nanoTime() - start);
                    perThread[thread]++;
                } else {
                    timeouts.incrementAndGet();
                }
            }
        });
        long acquisitions = 0;
        for (long count : perThread) {
            acquisitions += count;
        }
        return new Phase(section, perThread, waits, acquisitions, timeouts.get());
    }

    private record Phase(CriticalSection section, long[] perThread, Latencies[] waits, long acquisitions,
            long timeouts) {
    }

    /** What runs under the lock: a read-then-write increment that loses updates without exclusion. */
    private static final class CriticalSection {

        private final long deadline;
        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicLong overlaps = new AtomicLong();
        private final AtomicLong moved = new AtomicLong();
        private final AtomicLong inWindow = new AtomicLong();
        private volatile long count;
        private volatile int lastOwner = -1;

        CriticalSection(long deadline) {
            this.deadline = deadline;
        }

        void enter(int thread) {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            long read = count;
            Thread.onSpinWait();
            count = read + 1;
            if (lastOwner != thread) {
                moved.incrementAndGet();
            }
            lastOwner = thread;
            if (System.nanoTime() - deadline < 0) {
                inWindow.incrementAndGet();
            }
            inside.decrementAndGet();
        }
    }
}
