package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.MultiLockHandle;
import io.github.distlock.OnLockFailure;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A {@link DistributedLock @DistributedLock} whose key is a collection or an array locks
 * one id per distinct element, all or none, in an order that cannot deadlock; through a
 * real Spring proxy ({@link InterceptionContextRunner}) on the in-memory store, "another
 * instance" being a separate engine on the same store.
 */
class MultiKeyAnnotationTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	private LockEngine otherInstance;

	private InterceptionContextRunner contextRunner;

	@BeforeEach
	void setUp() {
		this.otherInstance = new LockEngine(this.store, Duration.ofSeconds(30));
		this.contextRunner = new InterceptionContextRunner(this.store, Duration.ofMillis(200))
			.withUserConfiguration(ServicesConfiguration.class);
	}

	@AfterEach
	void shutDownOtherInstance() {
		this.otherInstance.destroy();
	}

	@Test
	void anInlineListLocksEachElementAndTheHandleHasATokenPerId() {
		this.contextRunner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			MultiLockHandle held = accounts.transfer("b-2", "a-1");
			assertThat(held.lockIds()).containsExactly("account:a-1", "account:b-2");
			assertThat(held.fencingTokens()).containsOnlyKeys("account:a-1", "account:b-2");
			assertThat(accounts.heldElsewhere()).containsExactly(true, true);
			assertThat(this.otherInstance.isLocked("account:a-1")).isFalse();
			assertThat(this.otherInstance.isLocked("account:b-2")).isFalse();
		});
	}

	@Test
	void aCollectionPropertyAndAnArrayLockDistinctElements() {
		this.contextRunner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			assertThat(accounts.reserve(List.of("apple", "pear", "apple"))).containsExactly("sku:apple", "sku:pear");
			assertThat(accounts.reserveAll(new String[] { "fig", "date" })).containsExactly("sku:date", "sku:fig");
			assertThat(accounts.reserve(List.of("kiwi"))).containsExactly("sku:kiwi");
		});
	}

	@Test
	void oneIdHeldElsewhereMeansNoCallAndNothingLeftHeld() {
		this.contextRunner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			try (LockHandle held = this.otherInstance.lock("account:b-2", Duration.ZERO)) {
				assertThatExceptionOfType(LockNotAcquiredException.class)
					.isThrownBy(() -> accounts.transfer("a-1", "b-2"))
					.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("account:a-1,account:b-2"))
					.withMessageContaining("Accounts.transfer(String, String)");
				assertThat(accounts.reserveOrSkip(List.of("b-2", "a-1"))).isFalse();
				assertThat(this.otherInstance.isLocked("account:a-1")).isFalse();
			}
			assertThat(accounts.invocations()).isEqualTo(0);
		});
	}

	@Test
	void anEmptyCollectionOrANullElementFailsNamingTheMethod() {
		this.contextRunner.run((context) -> {
			Accounts accounts = context.getBean(Accounts.class);
			assertThatIllegalArgumentException().isThrownBy(() -> accounts.reserve(List.of()))
				.withMessageContaining("Accounts.reserve(List)")
				.withMessageContaining("empty collection");
			List<String> withNull = new ArrayList<>(List.of("apple"));
			withNull.add(null);
			assertThatIllegalArgumentException().isThrownBy(() -> accounts.reserve(withNull))
				.withMessageContaining("at index 1")
				.withMessageContaining("null");
			assertThat(accounts.invocations()).isEqualTo(0);
		});
	}

	@Test
	void transfersInOppositeDirectionsFromManyThreadsNeitherDeadlockNorOverlap() throws Exception {
		new InterceptionContextRunner(this.store, Duration.ofSeconds(30))
			.withUserConfiguration(ServicesConfiguration.class)
			.run((context) -> {
				Accounts accounts = context.getBean(Accounts.class);
				ExecutorService executor = Executors.newFixedThreadPool(6);
				try {
					CountDownLatch start = new CountDownLatch(1);
					List<Future<?>> workers = new ArrayList<>();
					for (int t = 0; t < 6; t++) {
						boolean forward = t % 2 == 0;
						workers.add(executor.submit(() -> {
							start.await();
							for (int i = 0; i < 100; i++) {
								if (forward) {
									accounts.move("a-1", "b-2");
								}
								else {
									accounts.move("b-2", "a-1");
								}
							}
							return null;
						}));
					}
					start.countDown();
					for (Future<?> worker : workers) {
						worker.get(2, TimeUnit.MINUTES);
					}
				}
				finally {
					executor.shutdownNow();
				}
				assertThat(accounts.overlaps()).isZero();
				assertThat(accounts.balance("a-1") + accounts.balance("b-2")).isZero();
				assertThat(accounts.moves()).isEqualTo(600);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class ServicesConfiguration {

		@Bean
		Accounts accounts(LockEngine lockService) {
			return new Accounts(lockService);
		}

	}

	static class Accounts {

		private final LockEngine locks;

		private final AtomicInteger invocations = new AtomicInteger();

		private final Map<String, AtomicInteger> inside = new ConcurrentHashMap<>();

		private final Map<String, Integer> balances = new ConcurrentHashMap<>();

		private final AtomicInteger overlaps = new AtomicInteger();

		private final AtomicInteger moves = new AtomicInteger();

		private final List<Boolean> heldElsewhere = new ArrayList<>();

		Accounts(LockEngine locks) {
			this.locks = locks;
		}

		@DistributedLock(name = "account", key = "{#from, #to}", waitTime = "0")
		MultiLockHandle transfer(String from, String to) {
			this.invocations.incrementAndGet();
			MultiLockHandle held = (MultiLockHandle) LockContext.current().orElseThrow();
			this.heldElsewhere.clear();
			held.lockIds().forEach((id) -> this.heldElsewhere.add(this.locks.isLocked(id)));
			return held;
		}

		@DistributedLock(name = "account", key = "#accounts", waitTime = "0", onFailure = OnLockFailure.SKIP)
		boolean reserveOrSkip(List<String> accounts) {
			this.invocations.incrementAndGet();
			return true;
		}

		@DistributedLock(name = "sku", key = "#skus")
		List<String> reserve(List<String> skus) {
			this.invocations.incrementAndGet();
			return lockIds();
		}

		@DistributedLock(name = "sku", key = "#skus")
		List<String> reserveAll(String[] skus) {
			this.invocations.incrementAndGet();
			return lockIds();
		}

		@DistributedLock(name = "account", key = "{#from, #to}")
		void move(String from, String to) {
			for (String id : List.of(from, to)) {
				if (this.inside.computeIfAbsent(id, (key) -> new AtomicInteger()).incrementAndGet() != 1) {
					this.overlaps.incrementAndGet();
				}
			}
			this.balances.merge(from, -1, Integer::sum);
			this.balances.merge(to, 1, Integer::sum);
			this.moves.incrementAndGet();
			for (String id : List.of(from, to)) {
				this.inside.get(id).decrementAndGet();
			}
		}

		private static List<String> lockIds() {
			LockHandle held = LockContext.current().orElseThrow();
			return (held instanceof MultiLockHandle multi) ? multi.lockIds() : List.of(held.lockId());
		}

		int invocations() {
			return this.invocations.get();
		}

		List<Boolean> heldElsewhere() {
			return this.heldElsewhere;
		}

		int overlaps() {
			return this.overlaps.get();
		}

		int moves() {
			return this.moves.get();
		}

		int balance(String account) {
			return this.balances.getOrDefault(account, 0);
		}

	}

}
