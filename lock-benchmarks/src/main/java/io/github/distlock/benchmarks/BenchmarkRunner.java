package io.github.distlock.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the scenarios one after the other. Within a scenario every implementation gets its
 * own instances and a warm-up, then the implementations take turns with measured slices
 * (the order rotating each round), so that all of them see the same changes of machine
 * load: on a shared machine this is what keeps the ratios to {@code floor} meaningful. A
 * failing implementation is reported in its row and does not stop the others.
 */
final class BenchmarkRunner {

	static final List<Scenario> SCENARIOS = List.of(new UncontendedScenario(), new DistinctIdsScenario(),
			new ContendedScenario(), new HandoffScenario(), new ManyIdsScenario());

	private final RedisNodes redis;

	private final BenchmarkSettings settings;

	private final PrintStream progress;

	BenchmarkRunner(RedisNodes redis, BenchmarkSettings settings, PrintStream progress) {
		this.redis = redis;
		this.settings = settings;
		this.progress = progress;
	}

	/**
	 * Runs the whole set {@code times} times, one run after the other, each into a new
	 * run of {@code report} and each as {@link #run(Report, List, List, boolean)} runs
	 * it.
	 */
	void repeat(int times, RepeatedReport report, List<LockImplementation> implementations, List<Scenario> scenarios,
			boolean annotationOverhead) {
		for (int run = 1; run <= times; run++) {
			if (times > 1) {
				progress.printf("run %d of %d%n", run, times);
			}
			run(report.nextRun(), implementations, scenarios, annotationOverhead);
		}
	}

	/**
	 * Runs {@code scenarios} for {@code implementations}, then, if asked, the annotation
	 * overhead (on one {@code redis-server} only: it needs {@link RedisNodes#server()}).
	 */
	void run(Report report, List<LockImplementation> implementations, List<Scenario> scenarios,
			boolean annotationOverhead) {
		Scenario.Bench bench = new Scenario.Bench(redis, settings, new CostMeter(redis.meteredNodes()));
		for (Scenario scenario : scenarios) {
			redis.flushAll();
			long start = System.nanoTime();
			progress.printf("%s: warming up%n", scenario.name());
			Map<String, Trial> trials = new LinkedHashMap<>();
			Map<String, String> errors = new LinkedHashMap<>();
			for (LockImplementation implementation : implementations) {
				attempt(implementation.name(), errors, trials, () -> {
					Trial trial = scenario.open(implementation, bench);
					trials.put(implementation.name(), trial);
					trial.warmUp();
				});
			}
			int slices = scenario.slices(settings);
			for (int slice = 0; slice < slices; slice++) {
				List<String> order = new ArrayList<>(trials.keySet());
				if (!order.isEmpty()) {
					java.util.Collections.rotate(order, -slice);
				}
				for (String name : order) {
					Trial trial = trials.get(name);
					int index = slice;
					attempt(name, errors, trials, () -> trial.measureSlice(index, slices));
				}
			}
			for (LockImplementation implementation : implementations) {
				String name = implementation.name();
				Trial trial = trials.remove(name);
				if (trial != null) {
					attempt(name, errors, trials, () -> {
						try (trial) {
							report.add(new ScenarioResult(scenario.name(), name, trial.metrics(), null));
						}
					});
				}
				if (errors.containsKey(name)) {
					report.add(new ScenarioResult(scenario.name(), name, Map.of(), errors.get(name)));
				}
				ScenarioResult result = report.result(scenario.name(), name);
				progress.printf("  %-20s %s%n", name, errors.containsKey(name) ? "FAILED " + errors.get(name)
						: result != null ? result.metrics() : "");
			}
			progress.printf("%s: %.1f s%n", scenario.name(), (System.nanoTime() - start) / 1e9);
		}
		if (annotationOverhead) {
			redis.flushAll();
			progress.print("annotation-overhead ");
			Map<String, Object> overhead = AnnotationOverhead.run(bench);
			progress.println(overhead);
			report.overhead(overhead);
		}
	}

	/**
	 * Runs {@code step}; on failure records the error and drops (closing) the
	 * implementation's trial.
	 */
	private static void attempt(String name, Map<String, String> errors, Map<String, Trial> trials, Runnable step) {
		try {
			step.run();
		}
		catch (RuntimeException e) {
			errors.putIfAbsent(name, e.toString());
			Trial failed = trials.remove(name);
			if (failed != null) {
				try {
					failed.close();
				}
				catch (RuntimeException closing) {
					// The first failure is the one reported.
				}
			}
		}
	}

}
