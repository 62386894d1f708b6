package io.github.distlock.benchmarks;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

import io.github.distlock.testsupport.RedisServer;

/**
 * Runs the scenarios scenario by scenario (every implementation through one scenario before the next), so that the
 * rows compared in one table were measured close together in time. Keys are flushed before each run; a failing
 * implementation is reported in its row and does not stop the others.
 */
final class BenchmarkRunner {

    static final List<Scenario> SCENARIOS = List.of(new UncontendedScenario(), new DistinctIdsScenario(),
            new ContendedScenario(), new HandoffScenario(), new ManyIdsScenario());

    private final RedisServer redis;
    private final BenchmarkSettings settings;
    private final PrintStream progress;

    BenchmarkRunner(RedisServer redis, BenchmarkSettings settings, PrintStream progress) {
        this.redis = redis;
        this.settings = settings;
        this.progress = progress;
    }

    void run(Report report, List<LockImplementation> implementations, List<Scenario> scenarios,
            boolean annotationOverhead) {
        Scenario.Bench bench = new Scenario.Bench(redis, settings, new CostMeter(redis));
        for (Scenario scenario : scenarios) {
            for (LockImplementation implementation : implementations) {
                redis.flushAll();
                long start = System.nanoTime();
                progress.printf("%-13s %-20s ", scenario.name(), implementation.name());
                ScenarioResult result;
                try {
                    result = new ScenarioResult(scenario.name(), implementation.name(),
                            scenario.run(implementation, bench), null);
                } catch (RuntimeException e) {
                    result = new ScenarioResult(scenario.name(), implementation.name(), Map.of(), e.toString());
                }
                progress.printf("%5.1f s  %s%n", (System.nanoTime() - start) / 1e9,
                        result.error() != null ? "FAILED " + result.error() : result.metrics());
                report.add(result);
            }
        }
        if (annotationOverhead) {
            redis.flushAll();
            progress.print("annotation-overhead ");
            Map<String, Object> overhead = AnnotationOverhead.run(bench);
            progress.println(overhead);
            report.overhead(overhead);
        }
    }
}
