package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockMode;
import io.github.distlock.LockService;
import io.github.distlock.OnLockFailure;
import io.github.distlock.autoconfigure.LineUnderTest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @DistributedLock(mode = READ)} and {@code @DistributedLock(permits = N)}: READ
 * methods run together and exclude WRITE ones, at most N callers of a semaphore at once;
 * nonsense combinations, and shared holds on a store without them, fail at startup naming
 * the method and the attributes.
 */
class SharedAnnotationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, AopAutoConfiguration.class,
				LineUnderTest.LOCKS));

	@Test
	void readMethodsRunTogetherAndAWriteMethodWaitsForThem() {
		this.contextRunner.withPropertyValues("distributed-lock.store=in-memory")
			.withBean(Stock.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Stock stock = context.getBean(Stock.class);
				ExecutorService executor = Executors.newCachedThreadPool();
				try {
					CountDownLatch bothInside = new CountDownLatch(2);
					CountDownLatch leave = new CountDownLatch(1);
					List<Future<Integer>> readers = new ArrayList<>();
					for (int i = 0; i < 2; i++) {
						readers.add(executor.submit(() -> stock.read("apple", bothInside, leave)));
					}
					// Both READ holders inside at once: shared.
					assertThat(bothInside.await(20, TimeUnit.SECONDS)).isTrue();
					Future<?> writer = executor.submit(() -> stock.add("apple", 5));
					assertThat(context.getBean(LockService.class).isLocked("stock:apple")).isTrue();
					assertThat(stock.writes()).isZero();
					leave.countDown();
					for (Future<Integer> reader : readers) {
						assertThat(reader.get(20, TimeUnit.SECONDS)).isZero();
					}
					writer.get(20, TimeUnit.SECONDS);
					assertThat(stock.writes()).isEqualTo(1);
					assertThat(stock.overlaps()).isZero();
				}
				finally {
					executor.shutdownNow();
				}
			});
	}

	@Test
	void aSemaphoreMethodAdmitsAtMostItsPermits() {
		this.contextRunner.withPropertyValues("distributed-lock.store=in-memory")
			.withBean(Exports.class)
			.run((context) -> {
				Exports exports = context.getBean(Exports.class);
				ExecutorService executor = Executors.newFixedThreadPool(6);
				try {
					List<Future<?>> calls = new ArrayList<>();
					for (int i = 0; i < 60; i++) {
						calls.add(executor.submit(exports::export));
					}
					for (Future<?> call : calls) {
						call.get(60, TimeUnit.SECONDS);
					}
				}
				finally {
					executor.shutdownNow();
				}
				System.out.println("[shared-annotation] 60 calls on 6 threads, 2 permits: most " + exports.most()
						+ " at once, " + exports.runs() + " runs");
				assertThat(exports.most()).isBetween(1, 2);
				assertThat(exports.runs()).isEqualTo(60);
			});
	}

	/**
	 * As {@link java.util.concurrent.Semaphore}: a nested call of a semaphore method
	 * takes a permit of its own, so the call beyond the permits is not run (issue 39;
	 * before, every nested call re-entered the first permit).
	 */
	@Test
	void aNestedCallOfASemaphoreMethodTakesAPermitOfItsOwn() {
		this.contextRunner.withPropertyValues("distributed-lock.store=in-memory")
			.withBean(Relay.class)
			.run((context) -> {
				Relay relay = context.getBean(Relay.class);
				List<Long> tokens = new ArrayList<>();
				assertThat(relay.hop(relay, tokens)).isEqualTo(2);
				assertThat(tokens).hasSize(2).doesNotHaveDuplicates();
				assertThat(context.getBean(LockService.class).isLocked("relay")).isFalse();
			});
	}

	@Test
	void readWithPermitsFailsTheContext() {
		assertInvalid(ReadWithPermits.class, "in-memory",
				"Invalid @DistributedLock on " + ReadWithPermits.class.getName() + ".run(): mode = READ with"
						+ " permits = 3: READ holds are not counted");
	}

	@Test
	void noPermitsFailTheContext() {
		assertInvalid(NoPermits.class, "in-memory",
				"Invalid @DistributedLock on " + NoPermits.class.getName() + ".run(): permits = 0 must be at least 1");
	}

	@Test
	void aFairSharedLockFailsTheContext() {
		assertInvalid(FairRead.class, "in-memory",
				"Invalid @DistributedLock on " + FairRead.class.getName() + ".run(): mode = READ with fair = true");
	}

	@Test
	void sharedLocksOnTheQuorumStoreFailTheContext() {
		assertInvalid(Exports.class, "quorum", "Invalid @DistributedLock on " + Exports.class.getName()
				+ ".export(): permits = 2, but distributed-lock.store=quorum has no shared locks");
	}

	@Test
	void readLocksWhereReplicasAreWaitedForFailTheContext() {
		this.contextRunner
			.withPropertyValues("distributed-lock.store=redis", "distributed-lock.replication.min-replicas=1")
			.withBean(Stock.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootMessage(context.getStartupFailure()))
					.contains("mode = READ, but" + " distributed-lock.replication.min-replicas=1 has no shared locks");
			});
	}

	private void assertInvalid(Class<?> bean, String store, String message) {
		this.contextRunner.withPropertyValues("distributed-lock.store=" + store).withBean(bean).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(rootMessage(context.getStartupFailure())).startsWith(message);
		});
	}

	private static String rootMessage(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && !cause.getMessage().startsWith("Invalid @DistributedLock")) {
			cause = cause.getCause();
		}
		return cause.getMessage();
	}

	static class Stock {

		final AtomicInteger readers = new AtomicInteger();

		final AtomicInteger writes = new AtomicInteger();

		final AtomicInteger overlaps = new AtomicInteger();

		@DistributedLock(name = "stock", key = "#sku", mode = LockMode.READ, waitTime = "20s")
		public int read(String sku, CountDownLatch inside, CountDownLatch leave) throws InterruptedException {
			this.readers.incrementAndGet();
			inside.countDown();
			leave.await(20, TimeUnit.SECONDS);
			LockContext.current().orElseThrow();
			this.readers.decrementAndGet();
			return this.writes.get();
		}

		@DistributedLock(name = "stock", key = "#sku", waitTime = "20s")
		public void add(String sku, int quantity) {
			if (this.readers.get() > 0) {
				this.overlaps.incrementAndGet();
			}
			this.writes.incrementAndGet();
		}

		// Read through the proxy: its own fields are not the bean's.
		public int writes() {
			return this.writes.get();
		}

		public int overlaps() {
			return this.overlaps.get();
		}

	}

	static class Exports {

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger most = new AtomicInteger();

		final AtomicInteger runs = new AtomicInteger();

		@DistributedLock(name = "exports", permits = 2, waitTime = "60s")
		public void export() {
			this.most.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
			LockSupport.parkNanos(Duration.ofMillis(1).toNanos());
			this.runs.incrementAndGet();
			this.inside.decrementAndGet();
		}

		public int most() {
			return this.most.get();
		}

		public int runs() {
			return this.runs.get();
		}

	}

	static class Relay {

		/**
		 * Calls itself through the proxy until a call is skipped.
		 * @return how deep the calls that ran went
		 */
		@DistributedLock(name = "relay", permits = 2, waitTime = "0", onFailure = OnLockFailure.SKIP)
		public int hop(Relay self, List<Long> tokens) {
			tokens.add(LockContext.current().orElseThrow().fencingToken());
			int depth = tokens.size();
			if (depth == 5) {
				return depth;
			}
			int deeper = self.hop(self, tokens);
			return (deeper != 0) ? deeper : depth;
		}

	}

	static class ReadWithPermits {

		@DistributedLock(mode = LockMode.READ, permits = 3)
		public void run() {
		}

	}

	static class NoPermits {

		@DistributedLock(permits = 0)
		public void run() {
		}

	}

	static class FairRead {

		@DistributedLock(mode = LockMode.READ, fair = true)
		public void run() {
		}

	}

}
