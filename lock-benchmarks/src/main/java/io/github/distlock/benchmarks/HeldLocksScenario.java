package io.github.distlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Held locks: one application instance acquires N locks on distinct ids with
 * {@link #THREADS} threads, holds them all for the hold time doing nothing else (its
 * library renewing them in the background), checks that each is still held, releases them
 * all, and reads what is left in Redis a moment later. Measured:
 * <ul>
 * <li>the acquisition rate;</li>
 * <li>over the hold window, which starts after the acquisitions and a full GC: this JVM's
 * CPU per second ({@code getProcessCpuTime}; the only implementation open is the one
 * measured, so it is that library's background work plus the JVM's own), Redis's CPU and
 * commands per second, keys and {@code used_memory} at its end;</li>
 * <li>locks lost: not held at the end of the window, or found lost on release;</li>
 * <li>keys and {@code used_memory} {@code settle} after the last release, and the keys by
 * kind.</li>
 * </ul>
 * The caller empties Redis before each run: keys and memory are this implementation's.
 */
final class HeldLocksScenario {

	static final int THREADS = 8;

	private final RedisGauges redis;

	private final Duration holdTime;

	private final Duration settle;

	HeldLocksScenario(RedisGauges redis, Duration holdTime, Duration settle) {
		this.redis = redis;
		this.holdTime = holdTime;
		this.settle = settle;
	}

	/** Holds {@code ids} locks of {@code holder}, which the caller closes after. */
	Map<String, Object> run(LockHolder holder, String name, int ids) {
		long memoryEmpty = redis.usedMemory();
		LockHolder.Hold[] holds = new LockHolder.Hold[ids];
		long start = System.nanoTime();
		inParallel(name + "-acquire", ids, i -> holds[i] = holder.hold(name + ":" + i));
		long acquireNanos = System.nanoTime() - start;

		System.gc();
		long cpuBefore = processCpuNanos();
		double redisCpuBefore = redis.cpuSeconds();
		long commandsBefore = redis.commandsProcessed();
		Map<String, Long> callsBefore = redis.commandCalls();
		long windowStart = System.nanoTime();
		pause(holdTime);
		long cpuAfter = processCpuNanos();
		double redisCpuAfter = redis.cpuSeconds();
		long commandsAfter = redis.commandsProcessed();
		Map<String, Long> callsAfter = redis.commandCalls();
		double window = (System.nanoTime() - windowStart) / 1e9;
		long keysHolding = redis.keys();
		long memoryHolding = redis.usedMemory();

		boolean[] lost = new boolean[ids];
		inParallel(name + "-check", ids, i -> lost[i] = !holds[i].stillHeld());
		int lostAtCheck = count(lost);
		long releaseStart = System.nanoTime();
		inParallel(name + "-release", ids, i -> lost[i] |= !holds[i].release());
		long releaseNanos = System.nanoTime() - releaseStart;
		pause(settle);
		long keysAfter = redis.keys();
		long memoryAfter = redis.usedMemory();
		Map<String, Long> kinds = redis.keysByKind();
		// Again 10 s after the release (at once in runs shorter than that, the smoke
		// test's): a distlock receipt lives twice the command timeout (3 s here), so what
		// is left then is what outlives the replay window.
		if (holdTime.compareTo(Duration.ofSeconds(10)) >= 0) {
			pause(Duration.ofSeconds(10).minus(settle));
		}
		long keysLater = redis.keys();

		Map<String, Object> metrics = new LinkedHashMap<>();
		metrics.put("ids", ids);
		metrics.put("threads", THREADS);
		metrics.put("acquireSeconds", Report.round(acquireNanos / 1e9, 2));
		metrics.put("acquiredPerSecond", Report.round(ids * 1e9 / acquireNanos, 0));
		metrics.put("windowSeconds", Report.round(window, 1));
		metrics.put("clientCpuMsPerSecond", Report.round((cpuAfter - cpuBefore) / 1e6 / window, 1));
		metrics.put("redisCpuMsPerSecond", Report.round((redisCpuAfter - redisCpuBefore) * 1e3 / window, 1));
		metrics.put("redisCommandsPerSecond", Report.round((commandsAfter - commandsBefore) / window, 0));
		Map<String, Object> byCommand = new TreeMap<>();
		callsAfter.forEach((command, calls) -> {
			double perSecond = (calls - callsBefore.getOrDefault(command, 0L)) / window;
			if (perSecond >= 0.5) {
				byCommand.put(command, Report.round(perSecond, 0));
			}
		});
		metrics.put("redisCommandsPerSecondByCommand", byCommand);
		metrics.put("usedMemoryMbEmpty", mb(memoryEmpty));
		metrics.put("keysHolding", keysHolding);
		metrics.put("usedMemoryMbHolding", mb(memoryHolding - memoryEmpty));
		metrics.put("lostAtCheck", lostAtCheck);
		metrics.put("lost", count(lost));
		metrics.put("releaseSeconds", Report.round(releaseNanos / 1e9, 2));
		metrics.put("keysAfterRelease", keysAfter);
		metrics.put("keysAfterReleasePercent", Report.round(keysAfter * 100.0 / ids, 2));
		metrics.put("keysAfterReleaseByKind", kinds);
		metrics.put("keys10sAfterRelease", keysLater);
		metrics.put("usedMemoryMbAfterRelease", mb(memoryAfter - memoryEmpty));
		return metrics;
	}

	/**
	 * Runs {@code body} for every index below {@code ids}, on {@link #THREADS} threads.
	 */
	private void inParallel(String phase, int ids, IntConsumer body) {
		AtomicInteger next = new AtomicInteger();
		// Generous: at 1,000 a second 100,000 take 100 s.
		long timeout = Math.max(60_000, ids * 2L);
		Workers.run(phase, THREADS, timeout, thread -> {
			for (int i = next.getAndIncrement(); i < ids; i = next.getAndIncrement()) {
				body.accept(i);
			}
		});
	}

	private static int count(boolean[] flags) {
		int count = 0;
		for (boolean flag : flags) {
			count += flag ? 1 : 0;
		}
		return count;
	}

	private static double mb(long bytes) {
		return Report.round(bytes / 1048576.0, 1);
	}

	private static long processCpuNanos() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return 0;
	}

	private static void pause(Duration time) {
		try {
			Thread.sleep(time.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while holding the locks", ex);
		}
	}

}
