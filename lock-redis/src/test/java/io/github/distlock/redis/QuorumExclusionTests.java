package io.github.distlock.redis;

import java.time.Duration;
import java.util.List;

import io.github.distlock.core.LockEngine;
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
		ContendedCounters run = ContendedCounters.run(services, THREADS_PER_SERVICE, HOLDS_PER_THREAD,
				new String[] { "stock:apple", "stock:pear" }, Duration.ofSeconds(120),
				(service, id) -> service.lock(id, Duration.ofSeconds(60)));
		int expected = 2 * THREADS_PER_SERVICE * HOLDS_PER_THREAD;
		List<OverlapChecker.Overlap> overlaps = run.overlaps();
		List<OverlapChecker.Overlap> regressions = run.tokenRegressions();
		System.out.println("[quorum-exclusion] 5 nodes, 2 instances x " + THREADS_PER_SERVICE + " threads, "
				+ run.holds().size() + " holds of 2 ids, counters " + run.counter(0) + " + " + run.counter(1)
				+ " (expected " + expected + "), " + overlaps.size() + " overlapping, " + regressions.size()
				+ " token regressions");
		assertThat(overlaps).isEmpty();
		assertThat(regressions).isEmpty();
		assertThat(run.holds()).hasSize(expected);
		assertThat(run.counterSum()).isEqualTo(expected);
	}

}
