package io.github.distlock.redis;

import io.github.distlock.autoconfigure.LineUnderTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.OnLockFailure;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.metrics.LockMetrics;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.Unknown;
import io.github.distlock.testsupport.RedisServer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code distributed-lock.replication.min-replicas} on a real master with one replica:
 * acquisitions and hand-overs count only once the replica acknowledged them; with the
 * replica frozen (SIGSTOP) they fail closed, and the {@code WAIT} of one caller stalls
 * nobody else's commands; about as many connections stay open for these writes as ran at
 * once, and idle ones are closed after their timeout.
 */
class ReplicaAcknowledgedAcquireTests {

	/**
	 * Where the replica is frozen: the acquisition fails after it. Long enough for a
	 * replica that runs to acknowledge on a loaded machine.
	 */
	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	/**
	 * Where the replica runs: acknowledges long before it, however loaded the machine.
	 */
	private static final Duration PATIENT = Duration.ofSeconds(20);

	private static RedisServer master;

	private static RedisServer replica;

	private final java.util.List<AutoCloseable> closeables = new java.util.ArrayList<>();

	/** The commands of the replica-acknowledged writes' tests. */
	private RedisLockCommands commands;

	@BeforeAll
	static void startMasterAndReplica() {
		master = RedisServer.start();
		replica = RedisServer.builder().replicaOf(master).start();
	}

	@AfterAll
	static void stopThem() {
		if (replica != null) {
			replica.close();
		}
		if (master != null) {
			master.close();
		}
	}

	@BeforeEach
	void replicaInSync() {
		master.flushAll();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> replica.command("INFO", "replication").contains("master_link_status:up"));
		// Caught up after an earlier test's freeze, and answering.
		master.command("SET", "in-sync", "1");
		assertThat(master.command(Duration.ofSeconds(25), "WAIT", "1", "20000")).isEqualTo("1");
		master.flushAll();
	}

	@AfterEach
	void closeAndResume() throws Exception {
		replica.resume();
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			this.closeables.get(i).close();
		}
	}

	@Test
	void anAcquisitionReturnsOnlyOnceTheReplicaHasTheLock() {
		LockEngine locks = newService(newConnectionFactory(), 1, PATIENT);
		for (int i = 0; i < 200; i++) {
			try (LockHandle lock = locks.lock("stock:" + (i % 10), Duration.ofSeconds(5))) {
				// WAIT answered: the replica has the key now, not eventually.
				assertThat(replica.command("EXISTS", "distlock:{stock:" + (i % 10) + "}")).isEqualTo("1");
				assertThat(lock.isHeld()).isTrue();
			}
		}
		assertThat(locks.replicationFailures()).isZero();
		assertThat(locks.trackedLockCount()).isZero();
	}

	@Test
	void anAcquisitionTheReplicaDoesNotAcknowledgeFailsClosedAndLeavesNoKey() {
		LockEngine locks = newService(newConnectionFactory(), 1, TIMEOUT);
		replica.pause();
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> locks.lock("stock:apple", Duration.ofSeconds(5)))
			.withMessage("Lock 'stock:apple' was not acquired: the write was not replicated, "
					+ "0 of 1 required replicas acknowledged it within 1s; it was released again")
			.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("stock:apple"));
		assertThat(master.keys("distlock:{stock:apple}")).isEmpty();
		// tryLock says why too, instead of an empty Optional.
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> locks.tryLock("stock:apple", Duration.ZERO, null))
			.withMessageContaining("0 of 1 required replicas acknowledged it within 1s");
		assertThat(master.keys("distlock:{stock:apple}")).isEmpty();
		assertThat(locks.replicationFailures()).isEqualTo(2);
		assertThat(locks.trackedLockCount()).isZero();
		replica.resume();
		try (LockHandle lock = locks.lock("stock:apple", Duration.ofSeconds(5))) {
			assertThat(replica.command("EXISTS", "distlock:{stock:apple}")).isEqualTo("1");
		}
		assertThat(locks.replicationFailures()).isEqualTo(2);
	}

	@Test
	void aLockHeldByAnotherInstanceIsWaitedForWithoutWaitingForReplicas() {
		LockEngine locks = newService(newConnectionFactory(), 1, PATIENT);
		LockEngine other = newService(newConnectionFactory(), 1, PATIENT);
		try (LockHandle held = other.lock("stock:apple", Duration.ZERO)) {
			replica.pause();
			// The acquire script wrote no owner, so there was nothing to acknowledge.
			assertThat(locks.tryLock("stock:apple", Duration.ZERO, null)).isEmpty();
			assertThat(locks.replicationFailures()).isZero();
		}
	}

	@Test
	void aHandOverTheReplicaDoesNotAcknowledgeFailsClosedForTheWaiter() throws Exception {
		LockEngine locks = newService(newConnectionFactory(), 1, TIMEOUT);
		AtomicInteger criticalSections = new AtomicInteger();
		LockHandle held = locks.lock("stock:apple", Duration.ZERO);
		CompletableFuture<Void> waiter = new CompletableFuture<>();
		Thread waiting = new Thread(() -> {
			try {
				locks.runLocked("stock:apple", Duration.ofSeconds(30), criticalSections::incrementAndGet);
				waiter.complete(null);
			}
			catch (Throwable ex) {
				waiter.completeExceptionally(ex);
			}
		});
		waiting.start();
		await().atMost(Duration.ofSeconds(20)).until(() -> EngineProbe.isQueuedWaiter(waiting));
		replica.pause();
		// The holder's release hands the lock over, the replica does not acknowledge it:
		// it is freed; the waiter competes, and its own acquire is not acknowledged
		// either.
		held.close();
		assertThat(waiter).failsWithin(Duration.ofSeconds(30))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOf(LockNotAcquiredException.class)
			.withMessageContaining("0 of 1 required replicas acknowledged it within 1s");
		waiting.join(TimeUnit.SECONDS.toMillis(10));
		assertThat(criticalSections).hasValue(0);
		assertThat(master.keys("distlock:{stock:apple}")).isEmpty();
		assertThat(locks.replicationFailures()).isEqualTo(2);
		assertThat(locks.trackedLockCount()).isZero();
	}

	@Test
	void aWaitForReplicasStallsNoOtherThreadsCommands() throws Exception {
		LettuceConnectionFactory factory = newConnectionFactory();
		LockEngine locks = newService(factory, 1, Duration.ofMinutes(2));
		LockEngine unreplicated = newService(factory, 0, TIMEOUT);
		LockHandle heldBefore = locks.lock("held", Duration.ZERO);
		replica.pause();
		CountDownLatch waitReturned = new CountDownLatch(1);
		CompletableFuture<LockHandle> waiting = CompletableFuture.supplyAsync(() -> {
			try {
				return locks.lock("slow", Duration.ofSeconds(5));
			}
			finally {
				waitReturned.countDown();
			}
		});
		// Its WAIT is blocked on the master now.
		await().atMost(Duration.ofSeconds(20)).until(() -> master.command("CLIENT", "LIST").contains("cmd=wait"));
		// Meanwhile the same service and the same connection factory serve everything
		// else.
		assertThat(locks.isLocked("slow")).isTrue();
		assertThat(heldBefore.extend(Duration.ofMinutes(1))).isTrue();
		assertThat(locks.remainingLease("held")).isPresent();
		heldBefore.close();
		for (int i = 0; i < 100; i++) {
			try (LockHandle lock = unreplicated.lock("fast:" + i, Duration.ZERO)) {
				assertThat(lock.isHeld()).isTrue();
			}
		}
		assertThat(waitReturned.getCount()).as("the WAIT caller is still waiting").isEqualTo(1);
		assertThat(master.command("CLIENT", "LIST")).contains("cmd=wait");
		replica.resume();
		try (LockHandle slow = waiting.get(30, TimeUnit.SECONDS)) {
			assertThat(slow.isHeld()).isTrue();
		}
		assertThat(locks.replicationFailures()).isZero();
	}

	@Test
	void withReplicatedRenewalsAHolderLosesTheLockWhenItsRenewalsAreNotAcknowledged() {
		LockEngine locks = RedisEngines.blocking(new StringRedisTemplate(newConnectionFactory()),
				RedisLockSettings.defaults()
					.withLeaseTime(Duration.ofSeconds(3))
					.withReplication(1, TIMEOUT)
					.withReplicatedRenewals(true));
		this.closeables.add(locks::destroy);
		LockHandle held = locks.lock("report", Duration.ZERO);
		assertThat(held.extend(Duration.ofSeconds(3))).isTrue();
		replica.pause();
		assertThatExceptionOfType(TransientDataAccessResourceException.class)
			.isThrownBy(() -> held.extend(Duration.ofSeconds(3)))
			.withMessage("The lease reset was not replicated: 0 of 1 required replicas acknowledged it within 1s");
		// The watchdog's renewals fail the same way, until the lease the replica has runs
		// out. The loss is counted just after the handle stops being held: wait for both.
		await().atMost(Duration.ofSeconds(20)).until(() -> !held.isHeld() && locks.locksLost() > 0);
		assertThat(locks.renewalFailures()).isPositive();
		assertThat(locks.locksLost()).isEqualTo(1);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(held::close);
		assertThat(master.keys("distlock:{report}")).isEmpty();
	}

	@Test
	void withReplicatedRenewalsABatchOfRenewalsIsAcknowledgedAsAWhole() {
		RedisLockStore store = new RedisLockStore(new StringRedisTemplate(newConnectionFactory()),
				RedisLockSettings.defaults().withReplication(1, TIMEOUT).withReplicatedRenewals(true));
		this.closeables.add(store);
		List<LeaseReset> resets = new ArrayList<>();
		for (int i = 0; i < 120; i++) {
			String key = store.key("batch:" + i);
			assertThat(store.acquire(key, "owner-" + i, 60_000)).isInstanceOf(Acquired.class);
			resets.add(new LeaseReset(key, "owner-" + i, 60_000));
		}
		resets.add(new LeaseReset(store.key("batch:0"), "stranger", 60_000));
		assertThat(store.extendAll(resets)).hasSize(121)
			.startsWith(Extended.INSTANCE)
			.endsWith(NotOwned.INSTANCE)
			.containsOnly(Extended.INSTANCE, NotOwned.INSTANCE);
		replica.pause();
		List<ExtendReply> unacknowledged = store.extendAll(resets.subList(0, 120));
		assertThat(unacknowledged).hasSize(120)
			.allSatisfy((reply) -> assertThat(reply).isInstanceOfSatisfying(Unknown.class,
					(unknown) -> assertThat(unknown.cause()).hasMessage(
							"The lease reset was not replicated: 0 of 1 required replicas acknowledged it within 1s")));
	}

	@Test
	void aBrokenConnectionIsReplacedAndAllAreClosedWithTheService() {
		LettuceConnectionFactory factory = newConnectionFactory();
		LockEngine unreplicated = newService(factory, 0, TIMEOUT);
		assertThat(unreplicated.isLocked("warm-up")).isFalse();
		int sharedOnly = clientsOnMaster();
		LockEngine locks = newService(factory, 1, PATIENT);
		locks.lock("first", Duration.ZERO).close();
		assertThat(clientsOnMaster()).isEqualTo(sharedOnly + 1);
		String waitClient = master.command("CLIENT", "LIST")
			.lines()
			.filter((client) -> client.contains("cmd=wait"))
			.findFirst()
			.orElseThrow();
		master.command("CLIENT", "KILL", "ID", waitClient.replaceAll("^id=(\\d+) .*$", "$1"));
		for (int i = 0; i < 20; i++) {
			try (LockHandle lock = locks.lock("after-kill", Duration.ZERO)) {
				assertThat(replica.command("EXISTS", "distlock:{after-kill}")).isEqualTo("1");
			}
		}
		locks.destroy();
		await().atMost(Duration.ofSeconds(20)).until(() -> clientsOnMaster() == sharedOnly);
		assertThat(unreplicated.isLocked("first")).isFalse();
	}

	private static int clientsOnMaster() {
		// Minus the connection of this CLIENT LIST itself.
		return (int) master.command("CLIENT", "LIST").lines().filter((client) -> client.contains("cmd=")).count() - 1;
	}

	@Test
	void anAnnotatedMethodDoesNotRunAndTheMeterCounts() {
		ApplicationContextRunner contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LineUnderTest.OBSERVATION_AND_METRICS))
			.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class,
					LineUnderTest.LOCKS, LineUnderTest.LOCK_METRICS))
			.withPropertyValues("spring.data.redis.host=" + master.host(), "spring.data.redis.port=" + master.port(),
					"spring.data.redis.timeout=2s", "distributed-lock.replication.min-replicas=1",
					"distributed-lock.replication.timeout=1s")
			.withBean(Stock.class);
		contextRunner.run((context) -> {
			Stock stock = context.getBean(Stock.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			stock.buy("apple");
			assertThat(stock.sold()).isEqualTo(1);
			replica.pause();
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> stock.buy("apple"))
				.withMessageContaining("0 of 1 required replicas acknowledged it within 1s");
			// SKIP is for a lock held by others; a failed replication is reported.
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> stock.buyIfFree("apple"));
			assertThat(stock.sold()).isEqualTo(1);
			assertThat(master.keys("distlock:{stock:apple}")).isEmpty();
			assertThat(meters.get(LockMetrics.REPLICATION_FAILURES).functionCounter().count()).isEqualTo(2);
		});
	}

	@Test
	void concurrentWritesReuseTheirConnectionsInsteadOfOpeningNewOnes() throws Exception {
		ReplicaAcknowledgedWrites writes = newWrites(Duration.ofMinutes(1));
		int threads = 16;
		int rounds = 25;
		concurrently(writes, threads, rounds);
		System.out.printf(
				"[replica-writes] %d threads x %d acknowledged acquisitions of distinct locks: %d"
						+ " connections opened, %d open%n",
				threads, rounds, writes.openedConnections(), writes.openConnections());
		assertThat(writes.openedConnections()).isLessThanOrEqualTo(threads);
		assertThat(writes.openConnections()).isEqualTo(writes.openedConnections());
	}

	@Test
	void idleConnectionsOfAcknowledgedWritesAreClosedOnceUnusedForTheirTimeout() throws Exception {
		ReplicaAcknowledgedWrites writes = newWrites(Duration.ZERO);
		concurrently(writes, 4, 5);
		// Given back last: every other connection has been idle for at least the
		// timeout of 0.
		acquireAcknowledged(writes, "last");
		assertThat(writes.openConnections()).isEqualTo(1);
	}

	private ReplicaAcknowledgedWrites newWrites(Duration idleTimeout) {
		LettuceConnectionFactory factory = newConnectionFactory();
		this.commands = new RedisLockCommands(new StringRedisTemplate(factory), "distlock:released", 60_000);
		ReplicaAcknowledgedWrites writes = new ReplicaAcknowledgedWrites(factory, 1, PATIENT, idleTimeout);
		this.closeables.add(writes);
		return writes;
	}

	/**
	 * {@code threads} threads, started together, each acquiring its own locks
	 * {@code rounds} times (every acquisition waits for the replica).
	 */
	private void concurrently(ReplicaAcknowledgedWrites writes, int threads, int rounds) throws Exception {
		CyclicBarrier start = new CyclicBarrier(threads);
		List<CompletableFuture<Void>> done = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			int thread = t;
			done.add(CompletableFuture.runAsync(() -> {
				try {
					start.await(PATIENT.toSeconds(), TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				for (int round = 0; round < rounds; round++) {
					acquireAcknowledged(writes, thread + ":" + round);
				}
			}, (runnable) -> new Thread(runnable, "writer-" + thread).start()));
		}
		CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(PATIENT.toSeconds(), TimeUnit.SECONDS);
	}

	private void acquireAcknowledged(ReplicaAcknowledgedWrites writes, String id) {
		String key = new LockKeys("distlock:").lockKey(id);
		ReplicaAcknowledgedWrites.Written written = this.commands.acquire(writes, key, "owner", 30_000);
		assertThat(written.reply()).as("fencing token").isPositive();
		assertThat(written.acknowledged()).as("replicas that acknowledged").isEqualTo(1);
	}

	private LettuceConnectionFactory newConnectionFactory() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(master.host(), master.port()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		factory.afterPropertiesSet();
		factory.start();
		this.closeables.add(factory::destroy);
		return factory;
	}

	private LockEngine newService(LettuceConnectionFactory factory, int minReplicas, Duration timeout) {
		LockEngine service = RedisEngines.blocking(new StringRedisTemplate(factory),
				RedisLockSettings.defaults()
					.withLeaseTime(Duration.ofMinutes(5))
					.withReplication(minReplicas, timeout));
		this.closeables.add(service::destroy);
		return service;
	}

	static class Stock {

		private final AtomicInteger sold = new AtomicInteger();

		public int sold() {
			return this.sold.get();
		}

		@DistributedLock(name = "stock", key = "#sku", waitTime = "5s")
		public void buy(String sku) {
			this.sold.incrementAndGet();
		}

		@DistributedLock(name = "stock", key = "#sku", waitTime = "0", onFailure = OnLockFailure.SKIP)
		public boolean buyIfFree(String sku) {
			this.sold.incrementAndGet();
			return true;
		}

	}

}
