package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import io.github.distlock.core.LostLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessResourceFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The quorum under node faults, on real {@code redis-server} processes behind TCP
 * proxies: a minority killed, frozen (SIGSTOP), black-holed and restarted empty while
 * locks are taken (exclusion, progress, bounded waits, fencing tokens increasing); a
 * majority lost (acquisitions are tried again until their wait time ends, then fail
 * closed naming the nodes; holders learn of the loss).
 */
class QuorumFaultTests {

	private static final Duration WAIT = Duration.ofSeconds(3);

	private QuorumNodes nodes;

	@AfterEach
	void stopNodes() {
		if (this.nodes != null) {
			this.nodes.close();
		}
	}

	@Test
	void aMinorityKilledFrozenBlackHoledAndRestartedEmptyNeverBreaksExclusionNorFencing() throws Exception {
		this.nodes = new QuorumNodes(5, true);
		this.nodes.markEstablished();
		// Tokens far ahead of the clock, as a fast node's clock could have made them: a
		// node restarted empty proposes from its clock, far below, so only the records of
		// the trusted majority keep the tokens increasing.
		long ahead = 1_000L * System.currentTimeMillis() + 100_000_000_000_000L;
		String[] ids = { "stock:apple", "stock:pear" };
		LockEngine one = this.nodes.newService(Duration.ofSeconds(2));
		LockEngine two = this.nodes.newService(Duration.ofSeconds(2));
		for (String id : ids) {
			String key = new LockKeys("distlock:").lockKey(id);
			this.nodes.commandOnEvery("SET", RedisQuorumFenceRecords.recordKey(key), Long.toString(ahead), "PX",
					"600000");
		}
		long[] counters = new long[ids.length];
		Queue<Hold> holds = new ConcurrentLinkedQueue<>();
		AtomicLong notAcquired = new AtomicLong();
		AtomicLong failed = new AtomicLong();
		AtomicLong longestCallMillis = new AtomicLong();
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService pool = Executors.newFixedThreadPool(6);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < 6; t++) {
			LockEngine service = (t % 2 == 0) ? one : two;
			String client = "service" + (t % 2) + "-t" + t;
			int index = t % ids.length;
			workers.add(pool.submit(() -> {
				while (!stop.get()) {
					long called = System.nanoTime();
					Optional<LockHandle> lock;
					try {
						lock = service.tryLock(ids[index], WAIT, null);
					}
					catch (RuntimeException ex) {
						if (failed.incrementAndGet() <= 3) {
							System.out.println("[quorum-minority-faults] failure: " + ex);
						}
						continue;
					}
					finally {
						longestCallMillis.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - called),
								Math::max);
					}
					if (lock.isEmpty()) {
						notAcquired.incrementAndGet();
						continue;
					}
					long acquired = System.nanoTime();
					try (LockHandle held = lock.get()) {
						long read = counters[index];
						Thread.yield();
						counters[index] = read + 1;
						holds.add(new Hold(client, ids[index], held.fencingToken(), acquired, System.nanoTime()));
					}
					catch (LockLostException ex) {
						holds.add(new Hold(client, ids[index], lock.get().fencingToken(), acquired, System.nanoTime()));
					}
				}
				return null;
			}));
		}
		List<String> phases = new ArrayList<>();
		try {
			progress(holds, "healthy", phases);
			this.nodes.server(0).kill();
			progress(holds, "node 0 killed", phases);
			this.nodes.server(1).pause();
			progress(holds, "node 0 killed, node 1 frozen", phases);
			this.nodes.server(0).restart();
			this.nodes.server(1).resume();
			progress(holds, "node 0 restarted empty, node 1 resumed", phases);
			// Node 0 does not count for fencing until it kept its data for the
			// retention: together with it, one more node at a time is a minority.
			this.nodes.proxy(2).blackHole();
			progress(holds, "node 0 untrusted, node 2 black-holed", phases);
			this.nodes.proxy(2).heal();
			this.nodes.server(3).pause();
			progress(holds, "node 0 untrusted, node 3 frozen", phases);
			this.nodes.server(3).resume();
			this.nodes.server(4).kill();
			progress(holds, "node 0 untrusted, node 4 killed", phases);
		}
		finally {
			stop.set(true);
			for (Future<?> worker : workers) {
				worker.get(60, TimeUnit.SECONDS);
			}
			pool.shutdownNow();
		}
		List<OverlapChecker.Overlap> overlaps = OverlapChecker.overlaps(holds);
		List<OverlapChecker.Overlap> regressions = OverlapChecker.tokenRegressions(holds);
		System.out.println("[quorum-minority-faults] 5 nodes, 2 instances x 3 threads, " + holds.size()
				+ " holds through " + phases + "; counters " + counters[0] + " + " + counters[1] + ", "
				+ overlaps.size() + " overlapping, " + regressions.size() + " token regressions (tokens start at "
				+ ahead + "), " + notAcquired.get() + " not acquired within " + WAIT + ", " + failed.get()
				+ " failed, longest call " + longestCallMillis.get() + " ms");
		assertThat(overlaps).isEmpty();
		assertThat(regressions).isEmpty();
		assertThat(holds).allSatisfy((hold) -> assertThat(hold.token()).isGreaterThan(ahead));
		assertThat(counters[0] + counters[1]).isEqualTo(holds.size());
		// No waiter stuck: every call returned within its wait time and a few round
		// trips.
		assertThat(longestCallMillis.get()).isLessThan(WAIT.toMillis() + 5_000);
	}

	@Test
	void aMajorityLostFailsAcquisitionsClosedAndHoldersLearnOfTheLoss() throws Exception {
		this.nodes = new QuorumNodes(3, true);
		LockEngine holderService = this.nodes.newService(Duration.ofSeconds(1));
		LockEngine other = this.nodes.newService(Duration.ofSeconds(1));
		BlockingQueue<LostLock> lost = new LinkedBlockingQueue<>();
		holderService.setLockLostListener(lost::add);
		LockHandle holder = holderService.lock("report", WAIT);
		this.nodes.server(1).kill();
		this.nodes.proxy(2).blackHole();
		long faultAt = System.nanoTime();
		for (String id : new String[] { "report", "another" }) {
			// Tried again while the wait time remains, then failed with the store's
			// reason.
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> other.tryLock(id, WAIT, null))
				.havingCause()
				.isInstanceOf(DataAccessResourceFailureException.class)
				.withMessageContaining("a majority is 2")
				.withMessageContaining(this.nodes.proxy(2).host() + ":" + this.nodes.proxy(2).port());
		}
		long failedWithinMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultAt);
		LostLock event = lost.poll(20, TimeUnit.SECONDS);
		long lostAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultAt);
		assertThat(event).isNotNull();
		assertThat(event.lockId()).isEqualTo("report");
		assertThat(holder.isHeld()).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(holder::close);
		System.out.println("[quorum-majority-lost] 3 nodes, 1 killed and 1 black-holed: 2 acquisitions failed closed"
				+ " (both together in " + failedWithinMillis + " ms, each with a " + WAIT.toMillis()
				+ " ms wait); the holder's loss report (1 s lease) was there when looked for, " + lostAfterMillis
				+ " ms after the fault");
		// What the health indicator runs: DOWN while fewer than a majority answer.
		assertThatExceptionOfType(DataAccessResourceFailureException.class).isThrownBy(other::verifyStore)
			.withMessageContaining("cannot run on a majority");
		this.nodes.proxy(2).heal();
		this.nodes.server(1).restart();
		await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
			try (LockHandle again = other.lock("report", WAIT)) {
				return again.isHeld();
			}
		});
	}

	private static void progress(Queue<Hold> holds, String phase, List<String> phases) {
		int before = holds.size();
		System.out.println("[quorum-minority-faults] " + phase + " after " + before + " holds");
		await().atMost(Duration.ofSeconds(60)).until(() -> holds.size() >= before + 40);
		phases.add(phase);
	}

}
