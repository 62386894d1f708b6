package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

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
	public Trial open(LockImplementation implementation, Bench bench) {
		BenchmarkSettings settings = bench.settings();
		return new Trial(implementation, bench) {

			private final LockClient client = connect();

			private final Latencies[] latencies = new Latencies[settings.threads()];

			{
				for (int i = 0; i < latencies.length; i++) {
					latencies[i] = new Latencies();
				}
			}

			@Override
			void warmUp() {
				phase(settings.warmup(), false);
			}

			@Override
			protected void slice(int index, int count) {
				phase(settings.slice(), true);
			}

			private void phase(Duration window, boolean record) {
				long deadline = System.nanoTime() + window.toNanos();
				Workers.run("distinct-ids", settings.threads(), settings.phaseTimeoutMillis(window), thread -> {
					String lockId = "distinct-" + thread;
					Latencies mine = record ? latencies[thread] : new Latencies();
					while (System.nanoTime() - deadline < 0) {
						long start = System.nanoTime();
						Scenario.require(client.tryRunLocked(lockId, NOTHING), implementation.name(), lockId);
						mine.add(System.nanoTime() - start);
					}
				});
			}

			@Override
			Map<String, Object> metrics() {
				Latencies all = new Latencies();
				for (Latencies thread : latencies) {
					all.addAll(thread);
				}
				Latencies.Summary summary = all.summary();
				Map<String, Object> metrics = new LinkedHashMap<>();
				metrics.put("threads", settings.threads());
				metrics.put("cycles", summary.count());
				metrics.put("cyclesPerSecond", Report.round(summary.count() / measuredSeconds(), 0));
				metrics.put("p50Us", Report.micros(summary.p50Nanos()));
				metrics.put("p99Us", Report.micros(summary.p99Nanos()));
				metrics.putAll(costs.perOperation(summary.count()));
				return metrics;
			}
		};
	}

}
