package io.github.distlock.benchmarks;

import java.time.Duration;

/**
 * How long and how wide each scenario runs.
 *
 * @param warmup warm-up of each implementation before a scenario (same instances, results
 * discarded)
 * @param slice one measured turn of an implementation in the timed scenarios
 * @param slices measured turns per implementation and scenario, taken in rotation with
 * the others
 * @param threads threads of the distinct-ids, contended and many-ids scenarios
 * @param instances application instances the contended threads are spread over
 * @param handoffs measured hand-overs between two instances
 * @param handoffWarmup hand-overs before those
 * @param handoffHold how long the holder keeps the lock after the waiter started waiting
 * @param manyIds distinct ids acquired and released once each
 * @param overheadRounds alternating rounds of the annotation-overhead measurement
 * @param overheadRedisBatch calls per round against Redis
 * @param overheadMemoryBatch calls per round against the in-memory lock
 * @param waitTime longest wait for one acquisition
 * @param roundTrips {@code PING}s back to back and as many after {@code handoffHold}
 * idle, for the run's environment ({@link RoundTrips})
 */
record BenchmarkSettings(Duration warmup, Duration slice, int slices, int threads, int instances, int handoffs,
		int handoffWarmup, Duration handoffHold, int manyIds, int overheadRounds, int overheadRedisBatch,
		int overheadMemoryBatch, Duration waitTime, int roundTrips) {

	/** The full run: about 8 minutes on 2 cores. */
	static BenchmarkSettings full() {
		return new BenchmarkSettings(Duration.ofSeconds(2), Duration.ofSeconds(1), 5, 16, 2, 500, 20,
				Duration.ofMillis(5), 100_000, 40, 200, 100_000, Duration.ofSeconds(30), 2_000);
	}

	/** A few operations of each kind: proves the harness works, measures nothing. */
	static BenchmarkSettings smoke() {
		return new BenchmarkSettings(Duration.ofMillis(50), Duration.ofMillis(150), 2, 8, 2, 5, 1, Duration.ofMillis(5),
				200, 2, 10, 1_000, Duration.ofSeconds(30), 20);
	}

	/**
	 * Bound for a whole multi-threaded phase: its window plus generous room for draining
	 * waiters.
	 */
	long phaseTimeoutMillis(Duration window) {
		return window.toMillis() + waitTime.toMillis() * 2;
	}
}
