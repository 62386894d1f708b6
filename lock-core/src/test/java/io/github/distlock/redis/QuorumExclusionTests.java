package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mutual exclusion on the quorum: two lock services (two application instances, each with
 * its own connections) × 8 threads over 5 real {@code redis-server} nodes, an unprotected
 * read-modify-write per hold on two hot ids.
 */
class QuorumExclusionTests {

	private static final int THREADS_PER_SERVICE = 8;

	private static final int HOLDS_PER_THREAD = 60;

	private final QuorumNodes nodes = new QuorumNodes(5, false);

	@AfterEach
	void stopNodes() {
		this.nodes.close();
	}

	@Test
	void twoInstancesOfEightThreadsNeverHoldALockTogether() throws Exception {
		List<LockEngine> services = List.of(this.nodes.newService(Duration.ofSeconds(10)),
				this.nodes.newService(Duration.ofSeconds(10)));
		String[] ids = { "stock:apple", "stock:pear" };
		long[] counters = new long[ids.length];
		Queue<Hold> holds = new ConcurrentLinkedQueue<>();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_SERVICE);
		List<Future<?>> workers = new ArrayList<>();
		try {
			for (int s = 0; s < services.size(); s++) {
				LockEngine service = services.get(s);
				for (int t = 0; t < THREADS_PER_SERVICE; t++) {
					String client = "service" + s + "-t" + t;
					int first = t % ids.length;
					workers.add(pool.submit(() -> {
						start.await();
						for (int i = 0; i < HOLDS_PER_THREAD; i++) {
							int index = (first + i) % ids.length;
							try (LockHandle lock = service.lock(ids[index], Duration.ofSeconds(60))) {
								long acquired = System.nanoTime();
								long read = counters[index];
								Thread.yield();
								counters[index] = read + 1;
								holds.add(
										new Hold(client, ids[index], lock.fencingToken(), acquired, System.nanoTime()));
							}
						}
						return null;
					}));
				}
			}
			start.countDown();
			for (Future<?> worker : workers) {
				worker.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		int expected = 2 * THREADS_PER_SERVICE * HOLDS_PER_THREAD;
		List<OverlapChecker.Overlap> overlaps = OverlapChecker.overlaps(holds);
		List<OverlapChecker.Overlap> regressions = OverlapChecker.tokenRegressions(holds);
		System.out.println("[quorum-exclusion] 5 nodes, 2 instances x " + THREADS_PER_SERVICE + " threads, "
				+ holds.size() + " holds of 2 ids, counters " + counters[0] + " + " + counters[1] + " (expected "
				+ expected + "), " + overlaps.size() + " overlapping, " + regressions.size() + " token regressions");
		assertThat(overlaps).isEmpty();
		assertThat(regressions).isEmpty();
		assertThat(holds).hasSize(expected);
		assertThat(counters[0] + counters[1]).isEqualTo(expected);
	}

}
