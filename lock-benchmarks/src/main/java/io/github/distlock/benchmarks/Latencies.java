package io.github.distlock.benchmarks;

import java.util.Arrays;

/** Latency samples of one thread (not thread-safe); merged after the threads ended. */
final class Latencies {

	private long[] nanos = new long[4096];

	private int count;

	void add(long sampleNanos) {
		if (count == nanos.length) {
			nanos = Arrays.copyOf(nanos, count * 2);
		}
		nanos[count++] = sampleNanos;
	}

	void addAll(Latencies other) {
		for (int i = 0; i < other.count; i++) {
			add(other.nanos[i]);
		}
	}

	int count() {
		return count;
	}

	Summary summary() {
		long[] sorted = Arrays.copyOf(nanos, count);
		Arrays.sort(sorted);
		return new Summary(count, rank(sorted, 0.50), rank(sorted, 0.99), count == 0 ? 0 : sorted[count - 1]);
	}

	/** Nearest-rank percentile. */
	private static long rank(long[] sorted, double quantile) {
		if (sorted.length == 0) {
			return 0;
		}
		int index = (int) Math.ceil(quantile * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	record Summary(int count, long p50Nanos, long p99Nanos, long maxNanos) {
	}

}
