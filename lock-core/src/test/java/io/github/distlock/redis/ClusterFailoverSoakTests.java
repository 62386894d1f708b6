package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A soak on a real Redis Cluster across a master failover ({@code CLUSTER FAILOVER}), a
 * slot migration with lock keys in the slot, and a SIGKILL of a master, with locks held
 * and waited on by two instances × 4 threads on 60 contended ids: no waiter is stuck
 * (every {@code tryLock} returns within its wait time plus the command timeouts of its
 * attempts), and every double ownership (two holds of one id overlapping) is reported to
 * one of the two holders as a lost lock; their number is printed.
 */
class ClusterFailoverSoakTests {

	private static final int IDS = 60;

	private static final Duration WAIT = Duration.ofSeconds(3);

	/** Wait time, plus a few command timeouts (2 s) of attempts at a dead master. */
	private static final long RETURN_BOUND_NANOS = WAIT.toNanos() + TimeUnit.SECONDS.toNanos(12);

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	@AutoClose
	private final ClusterLockClients clients = new ClusterLockClients(redis.nodes());

	@Test
	void locksStayExclusiveOrReportedLostAcrossFailoverMigrationAndKill() throws Exception {
		RedisCluster cluster = redis.cluster();
		List<RedisLockService> instances = List.of(
				this.clients.newService(RedisLockSettings.defaults().withLeaseTime(Duration.ofSeconds(3))),
				this.clients.newService(RedisLockSettings.defaults().withLeaseTime(Duration.ofSeconds(3))));
		ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();
		Set<Hold> reportedLost = ConcurrentHashMap.newKeySet();
		AtomicInteger acquired = new AtomicInteger();
		AtomicInteger timedOut = new AtomicInteger();
		AtomicInteger failedCalls = new AtomicInteger();
		AtomicInteger stuck = new AtomicInteger();
		AtomicLong longestReturnNanos = new AtomicLong();
		AtomicBoolean running = new AtomicBoolean(true);
		int threads = 8;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			RedisLockService service = instances.get(t % 2);
			String client = "instance" + (t % 2) + "-t" + (t / 2);
			workers.add(pool.submit(() -> {
				while (running.get()) {
					String id = "soak:" + ThreadLocalRandom.current().nextInt(IDS);
					long asked = System.nanoTime();
					Optional<LockHandle> lock;
					try {
						lock = service.tryLock(id, WAIT, null);
					}
					catch (DataAccessException | LockNotAcquiredException ex) {
						failedCalls.incrementAndGet();
						lock = Optional.empty();
					}
					long returned = System.nanoTime() - asked;
					longestReturnNanos.accumulateAndGet(returned, Math::max);
					if (returned > RETURN_BOUND_NANOS) {
						stuck.incrementAndGet();
					}
					if (lock.isEmpty()) {
						timedOut.incrementAndGet();
						continue;
					}
					acquired.incrementAndGet();
					long start = System.nanoTime();
					Thread.sleep(ThreadLocalRandom.current().nextInt(1, 20));
					Hold hold = new Hold(client, id, lock.get().fencingToken(), start, System.nanoTime());
					holds.add(hold);
					try {
						lock.get().close();
					}
					catch (LockLostException ex) {
						reportedLost.add(hold);
					}
					catch (DataAccessException ex) {
						// The release could not reach a master: the lock runs out with
						// its
						// lease, and its holder was not told of a loss.
						failedCalls.incrementAndGet();
					}
				}
				return null;
			}));
		}
		RedisServer first = cluster.masters().get(0);
		awaitMoreAcquisitions(acquired, 200);
		cluster.failover(first);
		awaitMoreAcquisitions(acquired, 200);
		int slot = cluster.keySlot(new LockKeys("distlock:").lockKey("soak:7"));
		RedisServer from = cluster.masterForSlot(slot);
		RedisServer to = cluster.masters().stream().filter((m) -> !m.equals(from)).findFirst().orElseThrow();
		cluster.migrateSlot(slot, from, to);
		awaitMoreAcquisitions(acquired, 200);
		cluster.killMaster(cluster.masters().get(2));
		awaitMoreAcquisitions(acquired, 200);
		running.set(false);
		for (Future<?> worker : workers) {
			worker.get(1, TimeUnit.MINUTES);
		}
		pool.shutdown();
		List<OverlapChecker.Overlap> overlaps = OverlapChecker.overlaps(holds);
		long unreported = overlaps.stream()
			.filter((overlap) -> !reportedLost.contains(overlap.first()) && !reportedLost.contains(overlap.second()))
			.count();
		System.out.println("[cluster-soak] instances=2 threads=" + threads + " ids=" + IDS + " acquired=" + acquired
				+ " notAcquiredInWaitTime=" + timedOut + " failedCalls=" + failedCalls + " reportedLost="
				+ reportedLost.size() + " doubleOwnerships=" + overlaps.size() + " unreportedDoubleOwnerships="
				+ unreported + " stuckWaiters=" + stuck + " longestReturnMs="
				+ TimeUnit.NANOSECONDS.toMillis(longestReturnNanos.get()));
		assertThat(stuck).hasValue(0);
		assertThat(unreported).isZero();
	}

	/** Lets the workload run on: until {@code more} further locks were acquired. */
	private static void awaitMoreAcquisitions(AtomicInteger acquired, int more) {
		int target = acquired.get() + more;
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acquired.get() >= target);
	}

}
