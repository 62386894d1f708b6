package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * Scenario 6: a {@code @DistributedLock} method called through the Spring proxy against
 * the equivalent direct {@link LockService} call, on the same {@link LockService}, in
 * alternating rounds (the order flips every round so drift cancels out); the overhead is
 * the median of the per-round differences per call. Measured twice: against Redis (the
 * real cost, but within round-trip noise) and against {@link InMemoryLockService} (the
 * proxy's cost alone, precise). A hand-rolled measurement rather than JMH: it needs a
 * live Spring context and Redis.
 */
final class AnnotationOverhead {

	private static final String LOCK_ID = "overhead";

	private AnnotationOverhead() {
	}

	static Map<String, Object> run(Scenario.Bench bench) {
		BenchmarkSettings settings = bench.settings();
		Map<String, Object> metrics = new LinkedHashMap<>();
		try (ConfigurableApplicationContext context = DistlockApplications.onRedis(bench.redis().server(),
				settings.waitTime())) {
			metrics.putAll(prefixed("redis",
					measure(context, settings.waitTime(), settings.overheadRounds(), settings.overheadRedisBatch())));
		}
		try (ConfigurableApplicationContext context = DistlockApplications.inMemory(settings.waitTime())) {
			metrics.putAll(prefixed("inMemory",
					measure(context, settings.waitTime(), settings.overheadRounds(), settings.overheadMemoryBatch())));
		}
		return metrics;
	}

	private static Map<String, Object> measure(ConfigurableApplicationContext context, Duration waitTime, int rounds,
			int batch) {
		LockService locks = context.getBean(LockService.class);
		LockedActions actions = context.getBean(LockedActions.class);
		Runnable direct = () -> {
			Optional<LockHandle> acquired = locks.tryLock("bench:" + LOCK_ID, waitTime, null);
			try (LockHandle handle = acquired.orElseThrow(() -> new IllegalStateException("not acquired"))) {
				Scenario.NOTHING.run();
			}
		};
		Runnable annotated = () -> {
			if (!actions.run(LOCK_ID, Scenario.NOTHING)) {
				throw new IllegalStateException("not acquired");
			}
		};
		int warmupRounds = Math.max(1, rounds / 4);
		for (int i = 0; i < warmupRounds; i++) {
			timePerCall(direct, batch);
			timePerCall(annotated, batch);
		}
		double[] differences = new double[rounds];
		double directTotal = 0;
		double annotatedTotal = 0;
		for (int round = 0; round < rounds; round++) {
			double directNanos;
			double annotatedNanos;
			if (round % 2 == 0) {
				directNanos = timePerCall(direct, batch);
				annotatedNanos = timePerCall(annotated, batch);
			}
			else {
				annotatedNanos = timePerCall(annotated, batch);
				directNanos = timePerCall(direct, batch);
			}
			differences[round] = annotatedNanos - directNanos;
			directTotal += directNanos;
			annotatedTotal += annotatedNanos;
		}
		Arrays.sort(differences);
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("CallsPerRound", batch);
		result.put("Rounds", rounds);
		result.put("DirectUsPerCall", Report.round(directTotal / rounds / 1e3, 2));
		result.put("AnnotatedUsPerCall", Report.round(annotatedTotal / rounds / 1e3, 2));
		result.put("OverheadUsPerCall", Report.round(differences[rounds / 2] / 1e3, 2));
		return result;
	}

	private static double timePerCall(Runnable call, int calls) {
		long start = System.nanoTime();
		for (int i = 0; i < calls; i++) {
			call.run();
		}
		return (System.nanoTime() - start) / (double) calls;
	}

	private static Map<String, Object> prefixed(String prefix, Map<String, Object> metrics) {
		Map<String, Object> result = new LinkedHashMap<>();
		metrics.forEach((name, value) -> result.put(prefix + name, value));
		return result;
	}

}
