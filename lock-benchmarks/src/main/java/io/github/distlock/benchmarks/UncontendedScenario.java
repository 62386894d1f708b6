package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Scenario 1: one caller, one id, lock + unlock in a loop: a thread, or for a
 * {@link ReactiveLockClient} one subscription after the other.
 */
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
	public Trial open(LockImplementation implementation, Bench bench) {
		return new Trial(implementation, bench) {

			private final LockClient client = connect();

			private final Latencies latencies = new Latencies();

			@Override
			void warmUp() {
				cycles(bench.settings().warmup(), new Latencies());
			}

			@Override
			protected void slice(int index, int count) {
				cycles(bench.settings().slice(), latencies);
			}

			private void cycles(Duration window, Latencies into) {
				long deadline = System.nanoTime() + window.toNanos();
				if (client instanceof ReactiveLockClient reactive) {
					// One caller: one subscription after the other, no thread waiting.
					Subscriptions.run("uncontended", 1, deadline, bench.settings().phaseTimeoutMillis(window),
							(caller) -> reactive.runLocked(LOCK_ID, NOTHING), (caller, acquired, nanos) -> {
								Scenario.require(acquired, implementation.name(), LOCK_ID);
								into.add(nanos);
							});
					return;
				}
				while (System.nanoTime() - deadline < 0) {
					long start = System.nanoTime();
					Scenario.require(client.tryRunLocked(LOCK_ID, NOTHING), implementation.name(), LOCK_ID);
					into.add(System.nanoTime() - start);
				}
			}

			@Override
			Map<String, Object> metrics() {
				Latencies.Summary summary = latencies.summary();
				Map<String, Object> metrics = new LinkedHashMap<>();
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
