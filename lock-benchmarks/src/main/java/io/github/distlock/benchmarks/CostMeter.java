package io.github.distlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import io.github.distlock.testsupport.RedisServer;

/**
 * What an operation costs besides time: Redis commands ({@code INFO commandstats}), CPU of this JVM
 * ({@code OperatingSystemMXBean.getProcessCpuTime}) and CPU of {@code redis-server} ({@code INFO cpu}).
 * Process CPU includes the harness's own threads, the same for every implementation.
 */
final class CostMeter {

    private final RedisServer redis;

    CostMeter(RedisServer redis) {
        this.redis = redis;
    }

    Snapshot snapshot() {
        return new Snapshot(processCpuNanos(), commandCalls(), redisCpuSeconds());
    }

    /** Per-operation costs between two snapshots, as metrics. */
    Map<String, Object> perOperation(Snapshot before, Snapshot after, long operations) {
        Map<String, Object> costs = new LinkedHashMap<>();
        double ops = Math.max(1, operations);
        Map<String, Object> commands = new TreeMap<>();
        long total = 0;
        for (Map.Entry<String, Long> entry : after.commandCalls().entrySet()) {
            long calls = entry.getValue() - before.commandCalls().getOrDefault(entry.getKey(), 0L);
            if (calls > 0) {
                commands.put(entry.getKey(), Report.round(calls / ops, 2));
                total += calls;
            }
        }
        costs.put("redisCommandsPerOp", Report.round(total / ops, 2));
        costs.put("redisCommandsPerOpByCommand", commands);
        costs.put("clientCpuUsPerOp", Report.round((after.processCpuNanos() - before.processCpuNanos()) / ops / 1e3, 1));
        costs.put("redisCpuUsPerOp", Report.round((after.redisCpuSeconds() - before.redisCpuSeconds()) / ops * 1e6, 1));
        return costs;
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }

    /** Calls per command, without the harness's own {@code INFO}, {@code FLUSHALL} and {@code CONFIG}. */
    private Map<String, Long> commandCalls() {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : redis.command("INFO", "commandstats").split("\\R")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String command = line.substring("cmdstat_".length(), line.indexOf(':'));
            if (command.equals("info") || command.equals("flushall") || command.startsWith("config")) {
                continue;
            }
            int start = line.indexOf("calls=") + "calls=".length();
            int end = line.indexOf(',', start);
            calls.put(command, Long.parseLong(line.substring(start, end < 0 ? line.length() : end)));
        }
        return calls;
    }

    private double redisCpuSeconds() {
        double seconds = 0;
        for (String line : redis.command("INFO", "cpu").split("\\R")) {
            if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                seconds += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return seconds;
    }

    record Snapshot(long processCpuNanos, Map<String, Long> commandCalls, double redisCpuSeconds) {
    }
}
