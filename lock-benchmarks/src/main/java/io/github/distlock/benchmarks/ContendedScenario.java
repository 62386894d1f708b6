package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 3: N threads spread over several instances, all on one id, a non-atomic
 * increment inside. Checks mutual exclusion (count == acquisitions, no thread ever inside
 * together with another) and measures how fairly the lock circulates. For an
 * implementation admitting several holders (a read lock, a semaphore) it checks that no
 * more are ever inside at once, and counts with an atomic increment. The callers of a
 * {@link ReactiveLockClient} are concurrent subscriptions rather than threads
 * ({@link Subscriptions}).
 */
final class ContendedScenario implements Scenario {

	private static final String LOCK_ID = "contended";

	@Override
	public String name() {
		return "contended";
	}

	@Override
	public String description() {
		return "16 threads over 2 instances on one id, non-atomic increment inside";
	}

	@Override
	public Trial open(LockImplementation implementation, Bench bench) {
		BenchmarkSettings settings = bench.settings();
		return new Trial(implementation, bench) {

			private final List<LockClient> clients = new ArrayList<>();

			private final CriticalSection section = new CriticalSection(implementation.maxHolders());

			private final long[] perThread = new long[settings.threads()];

			private final Latencies[] waits = new Latencies[settings.threads()];

			private final AtomicLong timeouts = new AtomicLong();

			{
				for (int i = 0; i < settings.instances(); i++) {
					clients.add(connect());
				}
				for (int i = 0; i < waits.length; i++) {
					waits[i] = new Latencies();
				}
			}

			@Override
			void warmUp() {
				phase(settings.warmup(), new CriticalSection(implementation.maxHolders()), new long[perThread.length],
						new Latencies[0], new AtomicLong());
			}

			@Override
			protected void slice(int index, int count) {
				phase(settings.slice(), section, perThread, waits, timeouts);
			}

			private void phase(Duration window, CriticalSection into, long[] acquisitions, Latencies[] waitsInto,
					AtomicLong timeoutsInto) {
				long deadline = System.nanoTime() + window.toNanos();
				into.deadline = deadline;
				if (clients.get(0) instanceof ReactiveLockClient) {
					subscriptions(window, deadline, into, acquisitions, waitsInto, timeoutsInto);
					return;
				}
				Workers.run("contended", perThread.length, settings.phaseTimeoutMillis(window), thread -> {
					LockClient client = clients.get(thread % clients.size());
					Latencies mine = waitsInto.length > 0 ? waitsInto[thread] : new Latencies();
					Runnable body = () -> into.enter(thread);
					while (System.nanoTime() - deadline < 0) {
						long start = System.nanoTime();
						if (client.tryRunLocked(LOCK_ID, body)) {
							mine.add(System.nanoTime() - start);
							acquisitions[thread]++;
						}
						else {
							timeoutsInto.incrementAndGet();
						}
					}
				});
			}

			/**
			 * The phase of a {@link ReactiveLockClient}: as many subscription chains as
			 * there are threads otherwise, spread over the instances the same way.
			 */
			private void subscriptions(Duration window, long deadline, CriticalSection into, long[] acquisitions,
					Latencies[] waitsInto, AtomicLong timeoutsInto) {
				Latencies[] mine = new Latencies[perThread.length];
				for (int i = 0; i < mine.length; i++) {
					mine[i] = waitsInto.length > 0 ? waitsInto[i] : new Latencies();
				}
				Subscriptions.run("contended", perThread.length, deadline, settings.phaseTimeoutMillis(window),
						(caller) -> ((ReactiveLockClient) clients.get(caller % clients.size())).runLocked(LOCK_ID,
								() -> into.enter(caller)),
						(caller, acquired, nanos) -> {
							if (acquired) {
								mine[caller].add(nanos);
								acquisitions[caller]++;
							}
							else {
								timeoutsInto.incrementAndGet();
							}
						});
			}

			@Override
			Map<String, Object> metrics() {
				Latencies all = new Latencies();
				long total = 0;
				long min = Long.MAX_VALUE;
				long max = 0;
				for (int i = 0; i < perThread.length; i++) {
					all.addAll(waits[i]);
					total += perThread[i];
					min = Math.min(min, perThread[i]);
					max = Math.max(max, perThread[i]);
				}
				Latencies.Summary wait = all.summary();
				Map<String, Object> metrics = new LinkedHashMap<>();
				metrics.put("threads", settings.threads());
				metrics.put("instances", settings.instances());
				metrics.put("acquisitions", total);
				metrics.put("acquisitionsPerSecond", Report
					.round(section.inWindow.get() / (settings.slice().toNanos() / 1e9 * slices(settings)), 0));
				metrics.put("movedToOtherThreadPercent",
						Report.round(100.0 * section.moved.get() / Math.max(1, total), 1));
				metrics.put("waitP50Ms", Report.millis(wait.p50Nanos()));
				metrics.put("waitP99Ms", Report.millis(wait.p99Nanos()));
				metrics.put("waitMaxMs", Report.millis(wait.maxNanos()));
				metrics.put("perThreadMinAcquisitions", min);
				metrics.put("perThreadMaxAcquisitions", max);
				metrics.put("timeouts", timeouts.get());
				metrics.put("finalCount", section.count);
				metrics.put("overlaps", section.overlaps.get());
				metrics.put("mostInside", section.most.get());
				metrics.put("mutualExclusion", section.count == total && section.overlaps.get() == 0);
				metrics.putAll(costs.perOperation(total));
				return metrics;
			}
		};
	}

	/**
	 * What runs under the lock: a read-then-write increment that loses updates without
	 * exclusion.
	 */
	private static final class CriticalSection {

		private final int maxHolders;

		private final AtomicInteger inside = new AtomicInteger();

		private final AtomicInteger most = new AtomicInteger();

		private final AtomicLong shared = new AtomicLong();

		private final AtomicLong overlaps = new AtomicLong();

		private final AtomicLong moved = new AtomicLong();

		private final AtomicLong inWindow = new AtomicLong();

		private volatile long deadline;

		private volatile long count;

		private volatile int lastOwner = -1;

		CriticalSection(int maxHolders) {
			this.maxHolders = maxHolders;
		}

		void enter(int thread) {
			int now = inside.incrementAndGet();
			most.accumulateAndGet(now, Math::max);
			if (now > maxHolders) {
				overlaps.incrementAndGet();
			}
			if (maxHolders == 1) {
				long read = count;
				Thread.onSpinWait();
				count = read + 1;
			}
			else {
				Thread.onSpinWait();
				count = shared.incrementAndGet();
			}
			if (lastOwner != thread) {
				moved.incrementAndGet();
			}
			lastOwner = thread;
			if (System.nanoTime() - deadline < 0) {
				inWindow.incrementAndGet();
			}
			inside.decrementAndGet();
		}

	}

}
