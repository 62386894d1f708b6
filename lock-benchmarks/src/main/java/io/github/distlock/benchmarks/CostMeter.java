package io.github.distlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.github.distlock.testsupport.RedisServer;

/**
 * What an operation costs besides time: Redis commands ({@code INFO commandstats}), CPU
 * of this JVM ({@code OperatingSystemMXBean.getProcessCpuTime}) and CPU of
 * {@code redis-server} ({@code INFO cpu}), Redis's summed over the nodes the clients talk
 * to (see {@link RedisNodes#meteredNodes()}). Process CPU includes the harness's own
 * threads, the same for every implementation.
 */
final class CostMeter {

	private final List<RedisServer> nodes;

	/** Measures the commands and CPU of {@code nodes}, added up. */
	CostMeter(List<RedisServer> nodes) {
		this.nodes = List.copyOf(nodes);
	}

	private Snapshot snapshot() {
		return new Snapshot(processCpuNanos(), commandCalls(), redisCpuSeconds());
	}

	/** Runs {@code slice} and adds what it cost to {@code costs}. */
	void measure(Costs costs, Runnable slice) {
		Snapshot before = snapshot();
		slice.run();
		Snapshot after = snapshot();
		costs.processCpuNanos += after.processCpuNanos() - before.processCpuNanos();
		costs.redisCpuSeconds += after.redisCpuSeconds() - before.redisCpuSeconds();
		after.commandCalls().forEach((command, calls) -> {
			long added = calls - before.commandCalls().getOrDefault(command, 0L);
			if (added > 0) {
				costs.commandCalls.merge(command, added, Long::sum);
			}
		});
	}

	private static long processCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return 0;
	}

	/**
	 * Calls per command, without the harness's own {@code INFO}, {@code FLUSHALL} and
	 * {@code CONFIG}.
	 */
	private Map<String, Long> commandCalls() {
		Map<String, Long> calls = new TreeMap<>();
		for (RedisServer node : nodes) {
			commandCalls(node, calls);
		}
		return calls;
	}

	private static void commandCalls(RedisServer node, Map<String, Long> calls) {
		for (String line : node.command("INFO", "commandstats").split("\\R")) {
			if (!line.startsWith("cmdstat_")) {
				continue;
			}
			String command = line.substring("cmdstat_".length(), line.indexOf(':'));
			if (command.equals("info") || command.equals("flushall") || command.startsWith("config")) {
				continue;
			}
			int start = line.indexOf("calls=") + "calls=".length();
			int end = line.indexOf(',', start);
			calls.merge(command, Long.parseLong(line.substring(start, end < 0 ? line.length() : end)), Long::sum);
		}
	}

	private double redisCpuSeconds() {
		double seconds = 0;
		for (RedisServer node : nodes) {
			for (String line : node.command("INFO", "cpu").split("\\R")) {
				if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
					seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
				}
			}
		}
		return seconds;
	}

	record Snapshot(long processCpuNanos, Map<String, Long> commandCalls, double redisCpuSeconds) {
	}

	/**
	 * The costs of the measured slices of one implementation in one scenario, added up.
	 */
	static final class Costs {

		private long processCpuNanos;

		private double redisCpuSeconds;

		private final Map<String, Long> commandCalls = new TreeMap<>();

		/**
		 * Per-operation costs as metrics. Redis counts commands run inside scripts too.
		 */
		Map<String, Object> perOperation(long operations) {
			Map<String, Object> costs = new LinkedHashMap<>();
			double ops = Math.max(1, operations);
			Map<String, Object> commands = new TreeMap<>();
			long total = 0;
			for (Map.Entry<String, Long> entry : commandCalls.entrySet()) {
				commands.put(entry.getKey(), Report.round(entry.getValue() / ops, 2));
				total += entry.getValue();
			}
			costs.put("redisCommandsPerOp", Report.round(total / ops, 2));
			costs.put("redisCommandsPerOpByCommand", commands);
			costs.put("clientCpuUsPerOp", Report.round(processCpuNanos / ops / 1e3, 1));
			costs.put("redisCpuUsPerOp", Report.round(redisCpuSeconds / ops * 1e6, 1));
			return costs;
		}

	}

}
