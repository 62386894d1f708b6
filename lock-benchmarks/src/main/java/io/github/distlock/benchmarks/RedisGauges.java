package io.github.distlock.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.github.distlock.testsupport.RedisServer;

/**
 * What the held-locks scenario reads from Redis itself, added up over the nodes the
 * clients talk to ({@link RedisNodes#meteredNodes()}): CPU ({@code INFO cpu}), commands
 * processed ({@code INFO stats}), keys ({@code DBSIZE}), memory ({@code INFO memory}),
 * and the keys by kind of name. Nothing here knows a library's internals beyond the
 * suffixes it classifies keys by.
 */
final class RedisGauges {

	private final List<RedisServer> nodes;

	RedisGauges(List<RedisServer> nodes) {
		this.nodes = List.copyOf(nodes);
	}

	/** {@code used_cpu_sys + used_cpu_user}, seconds. */
	double cpuSeconds() {
		return sum("cpu", "used_cpu_sys") + sum("cpu", "used_cpu_user");
	}

	/**
	 * {@code total_commands_processed}: every command, those a script runs included (an
	 * {@code EVALSHA} whose script calls two commands counts three), and the scenario's
	 * own few {@code INFO}s.
	 */
	long commandsProcessed() {
		return (long) sum("stats", "total_commands_processed");
	}

	/**
	 * Calls per command ({@code INFO commandstats}; Redis 7 names subcommands
	 * {@code cluster|nodes}), those scripts run included.
	 */
	Map<String, Long> commandCalls() {
		Map<String, Long> calls = new TreeMap<>();
		for (RedisServer node : nodes) {
			for (String line : node.command("INFO", "commandstats").split("\\R")) {
				if (line.startsWith("cmdstat_")) {
					int start = line.indexOf("calls=") + "calls=".length();
					int end = line.indexOf(',', start);
					calls.merge(line.substring("cmdstat_".length(), line.indexOf(':')),
							Long.parseLong(line.substring(start, end < 0 ? line.length() : end)), Long::sum);
				}
			}
		}
		return calls;
	}

	/** {@code used_memory}, bytes. */
	long usedMemory() {
		return (long) sum("memory", "used_memory");
	}

	long keys() {
		long keys = 0;
		for (RedisServer node : nodes) {
			keys += Long.parseLong(node.command("DBSIZE").trim());
		}
		return keys;
	}

	/**
	 * The keys by kind, found with {@code SCAN}: names ending in {@code :fence}, in
	 * {@code :released}, and the others; meant for what is left after a release, not for
	 * 100,000 held locks.
	 */
	Map<String, Long> keysByKind() {
		Map<String, Long> kinds = new LinkedHashMap<>();
		kinds.put("fence", 0L);
		kinds.put("released", 0L);
		kinds.put("other", 0L);
		for (RedisServer node : nodes) {
			for (String key : node.keys("*")) {
				String kind = key.endsWith(":fence") ? "fence" : key.endsWith(":released") ? "released" : "other";
				kinds.merge(kind, 1L, Long::sum);
			}
		}
		return kinds;
	}

	private double sum(String section, String field) {
		double total = 0;
		for (RedisServer node : nodes) {
			for (String line : node.command("INFO", section).split("\\R")) {
				if (line.startsWith(field + ":")) {
					total += Double.parseDouble(line.substring(field.length() + 1).trim());
				}
			}
		}
		return total;
	}

}
