package io.github.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One implementation's open instances in one scenario, and what its measured slices found
 * so far.
 */
abstract class Trial implements AutoCloseable {

	protected final LockImplementation implementation;

	protected final Scenario.Bench bench;

	protected final CostMeter.Costs costs = new CostMeter.Costs();

	private final List<LockClient> clients = new ArrayList<>();

	private long measuredNanos;

	Trial(LockImplementation implementation, Scenario.Bench bench) {
		this.implementation = implementation;
		this.bench = bench;
	}

	/** A new application instance, closed with the trial. */
	protected final LockClient connect() {
		LockClient client = bench.connect(implementation);
		clients.add(client);
		return client;
	}

	abstract void warmUp();

	/** Runs measured slice {@code index} of {@code count}, adding its costs. */
	final void measureSlice(int index, int count) {
		bench.meter().measure(costs, () -> {
			long start = System.nanoTime();
			slice(index, count);
			measuredNanos += System.nanoTime() - start;
		});
	}

	protected abstract void slice(int index, int count);

	/** Metrics over all measured slices. */
	abstract Map<String, Object> metrics();

	protected final double measuredSeconds() {
		return measuredNanos / 1e9;
	}

	@Override
	public void close() {
		RuntimeException failure = null;
		for (LockClient client : clients) {
			try {
				client.close();
			}
			catch (RuntimeException e) {
				failure = failure == null ? e : failure;
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

}
