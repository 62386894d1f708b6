package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A soak on a real Redis Cluster (3 masters, 3 replicas) across a coordinated failover
 * ({@code CLUSTER FAILOVER}), a slot migration with lock keys in the slot, and a SIGKILL
 * of a master whose replication was frozen while locks were acquired on it, with locks
 * held and waited on by two instances × 4 threads on 60 contended ids; run without and
 * with {@code min-replicas: 1} (and replicated renewals).
 * <p>
 * Every variant: no waiter is stuck and none gets an exception while its wait time
 * remains (every {@code tryLock} returns within its wait time plus the round trips of one
 * last attempt); no release or hand-over takes effect on a key naming another owner
 * (audited against Redis, {@link ReleaseAuditingStore}); every double ownership (two
 * holds of one id overlapping) is reported to one of its holders as a lost lock. Holds
 * acquired while replication is frozen last until after the promotion, so that a lock the
 * promoted replica never saw is taken by another holder meanwhile: without
 * {@code min-replicas} the double ownerships are printed, with {@code min-replicas: 1}
 * such acquisitions fail closed and there are none.
 */
class ClusterFailoverSoakTests {

	private static final int IDS = 60;

	private static final Duration WAIT = Duration.ofSeconds(3);

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration REPLICATION_TIMEOUT = Duration.ofSeconds(1);

	/**
	 * Wait time, plus one last attempt that started before it passed (a command timeout,
	 * the replicas' acknowledgement and a command timeout for undoing it), plus thread
	 * scheduling on a loaded machine.
	 */
	private static final long RETURN_BOUND_NANOS = WAIT.plus(COMMAND_TIMEOUT.multipliedBy(2))
		.plus(REPLICATION_TIMEOUT)
		.plusSeconds(1)
		.toNanos();

	/** Acquisitions on the frozen master before it is killed. */
	private static final int EXPOSED = 5;

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	@AutoClose
	private final RedisLockClients clients = RedisLockClients.onCluster(redis.nodes());

	private final List<LockEngine> engines = new ArrayList<>();

	private final ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();

	private final Set<Hold> reportedLost = ConcurrentHashMap.newKeySet();

	private final AtomicInteger acquired = new AtomicInteger();

	private final AtomicInteger notAcquiredInWaitTime = new AtomicInteger();

	private final AtomicInteger failedAtDeadline = new AtomicInteger();

	private final AtomicInteger notReplicated = new AtomicInteger();

	private final AtomicInteger earlyFailures = new AtomicInteger();

	private final AtomicInteger stuck = new AtomicInteger();

	/** Holds whose fencing token could not be issued. */
	private final AtomicInteger tokenFailures = new AtomicInteger();

	/** The workers, which end only when told to. */
	private final List<Future<?>> workers = new ArrayList<>();

	private final AtomicLong longestReturnNanos = new AtomicLong();

	/** The workers' {@code tryLock} calls under way, and when each began. */
	private final Map<Thread, Long> calls = new ConcurrentHashMap<>();

	/** Ids served by the master whose replication is frozen, while it is. */
	private volatile Set<String> frozenIds = Set.of();

	/** Acquisitions (or, with min-replicas, failed acquisitions) of a frozen id. */
	private final AtomicInteger exposed = new AtomicInteger();

	private final CountDownLatch promoted = new CountDownLatch(1);

	@AfterEach
	void stopEngines() {
		this.engines.forEach(LockEngine::destroy);
	}

	@ParameterizedTest(name = "min-replicas={0}")
	@ValueSource(ints = { 0, 1 })
	void locksStayExclusiveOrReportedLostAcrossFailoverMigrationAndKill(int minReplicas) throws Exception {
		RedisCluster cluster = redis.cluster();
		RedisLockSettings settings = RedisLockSettings.defaults()
			.withReplication(minReplicas, REPLICATION_TIMEOUT)
			.withReplicatedRenewals(minReplicas > 0);
		List<ReleaseAuditingStore> stores = List.of(store(settings), store(settings));
		List<LockEngine> instances = List.of(engine(stores.get(0)), engine(stores.get(1)));
		AtomicBoolean running = new AtomicBoolean(true);
		int threads = 8;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		for (int t = 0; t < threads; t++) {
			LockEngine instance = instances.get(t % 2);
			String client = "instance" + (t % 2) + "-t" + (t / 2);
			this.workers.add(pool.submit(() -> {
				while (running.get()) {
					lockOnce(instance, client);
				}
				return null;
			}));
		}
		long startedAt = System.nanoTime();
		awaitMoreAcquisitions(100);
		cluster.failover(cluster.masters().get(0));
		awaitMoreAcquisitions(100);
		int slot = cluster.keySlot(key("soak:7"));
		RedisServer from = cluster.masterForSlot(slot);
		RedisServer to = cluster.masters().stream().filter((m) -> !m.equals(from)).findFirst().orElseThrow();
		cluster.migrateSlot(slot, from, to);
		awaitMoreAcquisitions(100);
		RedisServer frozen = cluster.masters().get(2);
		Set<String> idsOnFrozen = IntStream.range(0, IDS)
			.mapToObj((i) -> "soak:" + i)
			.filter((id) -> cluster.masterOf(key(id)).equals(frozen))
			.collect(Collectors.toUnmodifiableSet());
		cluster.loseUnreplicatedWrites(frozen, () -> {
			this.frozenIds = idsOnFrozen;
			awaitWorkload("acquisitions of ids on the frozen master", () -> this.exposed.get() >= EXPOSED);
			this.frozenIds = Set.of();
		});
		this.promoted.countDown();
		awaitMoreAcquisitions(100);
		running.set(false);
		for (Future<?> worker : this.workers) {
			worker.get(1, TimeUnit.MINUTES);
		}
		pool.shutdown();
		cluster.restartAsReplica(frozen);
		List<OverlapChecker.Overlap> overlaps = OverlapChecker.overlaps(this.holds);
		long unreported = overlaps.stream()
			.filter((overlap) -> !this.reportedLost.contains(overlap.first())
					&& !this.reportedLost.contains(overlap.second()))
			.count();
		long touched = stores.stream().mapToLong(ReleaseAuditingStore::touchedAnotherOwnersKey).sum();
		System.out.println("[cluster-soak] min-replicas=" + minReplicas + " instances=2 threads=" + threads + " ids="
				+ IDS + " seconds=" + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startedAt) + " acquired="
				+ this.acquired + " notAcquiredInWaitTime=" + this.notAcquiredInWaitTime + " failedAtDeadline="
				+ this.failedAtDeadline + " notReplicated=" + this.notReplicated + " earlyFailures="
				+ this.earlyFailures + " exposedWhileFrozen=" + this.exposed + " reportedLost="
				+ this.reportedLost.size() + " doubleOwnerships=" + overlaps.size() + " unreportedDoubleOwnerships="
				+ unreported + " stuckWaiters=" + this.stuck + " tokenFailures=" + this.tokenFailures
				+ " longestReturnMs=" + TimeUnit.NANOSECONDS.toMillis(this.longestReturnNanos.get())
				+ " releasesAudited=" + stores.stream().mapToLong(ReleaseAuditingStore::audited).sum() + " unaudited="
				+ stores.stream().mapToLong(ReleaseAuditingStore::unaudited).sum() + " refusedOnAnotherOwnersKey="
				+ stores.stream().mapToLong(ReleaseAuditingStore::refusedOnAnotherOwnersKey).sum()
				+ " touchedAnotherOwnersKey=" + touched);
		assertThat(this.stuck).hasValue(0);
		assertThat(this.earlyFailures).hasValue(0);
		assertThat(touched).isZero();
		assertThat(unreported).isZero();
		if (minReplicas > 0) {
			assertThat(this.notReplicated).hasValueGreaterThanOrEqualTo(EXPOSED);
			assertThat(overlaps).isEmpty();
		}
	}

	/** One {@code tryLock} of a random id, and a hold if it was acquired. */
	private void lockOnce(LockEngine instance, String client) throws InterruptedException {
		String id = "soak:" + ThreadLocalRandom.current().nextInt(IDS);
		long asked = System.nanoTime();
		Optional<LockHandle> lock = Optional.empty();
		this.calls.put(Thread.currentThread(), asked);
		try {
			lock = instance.tryLock(id, WAIT, null);
		}
		catch (LockNotAcquiredException ex) {
			if (String.valueOf(ex.getMessage()).contains("the write was not replicated")) {
				// Fails closed at once, by design.
				this.notReplicated.incrementAndGet();
				if (this.frozenIds.contains(id)) {
					this.exposed.incrementAndGet();
				}
			}
			else if (System.nanoTime() - asked >= WAIT.toNanos()) {
				this.failedAtDeadline.incrementAndGet();
			}
			else {
				earlyFailure(ex);
			}
		}
		catch (RuntimeException ex) {
			earlyFailure(ex);
		}
		finally {
			this.calls.remove(Thread.currentThread());
		}
		long returned = System.nanoTime() - asked;
		this.longestReturnNanos.accumulateAndGet(returned, Math::max);
		if (returned > RETURN_BOUND_NANOS) {
			this.stuck.incrementAndGet();
		}
		if (lock.isEmpty()) {
			this.notAcquiredInWaitTime.incrementAndGet();
			return;
		}
		this.acquired.incrementAndGet();
		long start = System.nanoTime();
		if (this.frozenIds.contains(id)) {
			// Held until after the promotion: another holder can take it meanwhile if
			// the promoted replica never saw it.
			this.exposed.incrementAndGet();
			this.promoted.await(1, TimeUnit.MINUTES);
			Thread.sleep(ThreadLocalRandom.current().nextInt(1000, 2000));
		}
		else {
			Thread.sleep(ThreadLocalRandom.current().nextInt(1, 20));
		}
		long fencingToken;
		try {
			fencingToken = lock.get().fencingToken();
		}
		catch (RuntimeException ex) {
			// The store's failure while issuing the token (documented; e.g. during the
			// failover): no hold to check. The lock is still released, and the worker
			// goes
			// on: a worker ended by it would hold its lock for good and acquire no more.
			this.tokenFailures.incrementAndGet();
			releaseQuietly(lock.get());
			return;
		}
		Hold hold = new Hold(client, id, fencingToken, start, System.nanoTime());
		this.holds.add(hold);
		try {
			lock.get().close();
		}
		catch (LockLostException ex) {
			this.reportedLost.add(hold);
		}
	}

	private static void releaseQuietly(LockHandle lock) {
		try {
			lock.close();
		}
		catch (LockLostException ex) {
			// Its token was never read: nothing to check.
		}
	}

	/** A failure while the wait time remained: counted, the first ones printed. */
	private void earlyFailure(RuntimeException failure) {
		if (this.earlyFailures.incrementAndGet() <= 3) {
			System.out.println("[cluster-soak] early failure: " + failure + " caused by " + failure.getCause());
		}
	}

	/** Lets the workload run on: until {@code more} further locks were acquired. */
	private void awaitMoreAcquisitions(int more) {
		int target = this.acquired.get() + more;
		awaitWorkload(more + " more acquisitions", () -> this.acquired.get() >= target);
	}

	/**
	 * Waits for an event of the workload at whatever rate the machine gives, failing at
	 * once if the product stalls instead: a {@code tryLock} that has not returned within
	 * its bound ({@link #RETURN_BOUND_NANOS}) or one that returned late. The outer bound
	 * only ends a run whose workers stopped altogether; the failure then prints the
	 * counters and the workers' stacks.
	 */
	private void awaitWorkload(String event, Callable<Boolean> happened) {
		try {
			await(event).atMost(Duration.ofMinutes(3))
				.failFast("a tryLock outlived its bound",
						() -> this.stuck.get() > 0 || oldestCallNanos() > RETURN_BOUND_NANOS)
				.failFast("a worker ended", () -> this.workers.stream().anyMatch(Future::isDone))
				.until(happened);
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError(event + " did not happen: " + counters() + workerStacks(), ex);
		}
		catch (RuntimeException ex) {
			AssertionError failure = new AssertionError(
					event + ": " + ex.getMessage() + "; " + counters() + workerStacks(), ex);
			this.workers.stream().filter(Future::isDone).forEach((worker) -> failure.addSuppressed(endOf(worker)));
			throw failure;
		}
	}

	private static Throwable endOf(Future<?> worker) {
		try {
			worker.get();
			return new IllegalStateException("a worker returned");
		}
		catch (ExecutionException ex) {
			return ex.getCause();
		}
		catch (InterruptedException | CancellationException ex) {
			return ex;
		}
	}

	private long oldestCallNanos() {
		long now = System.nanoTime();
		return this.calls.values().stream().mapToLong((asked) -> now - asked).max().orElse(0);
	}

	private String counters() {
		return "acquired=" + this.acquired + " exposed=" + this.exposed + " notAcquiredInWaitTime="
				+ this.notAcquiredInWaitTime + " failedAtDeadline=" + this.failedAtDeadline + " notReplicated="
				+ this.notReplicated + " earlyFailures=" + this.earlyFailures + " stuck=" + this.stuck
				+ " tokenFailures=" + this.tokenFailures + " oldestCallMs="
				+ TimeUnit.NANOSECONDS.toMillis(oldestCallNanos());
	}

	private String workerStacks() {
		StringBuilder stacks = new StringBuilder();
		this.calls.keySet().forEach((worker) -> {
			stacks.append("\n").append(worker.getName());
			for (StackTraceElement frame : worker.getStackTrace()) {
				stacks.append("\n\tat ").append(frame);
			}
		});
		return stacks.toString();
	}

	private ReleaseAuditingStore store(RedisLockSettings settings) {
		StringRedisTemplate template = new StringRedisTemplate(this.clients.newConnectionFactory());
		return new ReleaseAuditingStore(new RedisLockStore(template, settings), template);
	}

	/** An instance with a 10 s lease: holds outlive the freeze and the promotion. */
	private LockEngine engine(ReleaseAuditingStore store) {
		LockEngine engine = new LockEngine(store, Duration.ofSeconds(10));
		this.engines.add(engine);
		return engine;
	}

	private static String key(String lockId) {
		return new LockKeys("distlock:").lockKey(lockId);
	}

}
