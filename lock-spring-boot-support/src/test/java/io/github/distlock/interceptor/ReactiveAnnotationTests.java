package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.LockService;
import io.github.distlock.OnLockFailure;
import io.github.distlock.ReactiveLockContext;
import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.autoconfigure.LineUnderTest;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock} on methods returning {@code Mono}, {@code Flux} and
 * {@code CompletableFuture}: the lock is taken on subscription (at the call for a
 * future), the method runs only once it is held, and it is released when the result
 * completes, fails or is cancelled; SKIP and THROW, the fencing token in the Reactor
 * context, reentrancy within a pipeline and multi-key locks.
 */
class ReactiveAnnotationTests {

	private static final Duration BOUND = Duration.ofSeconds(20);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, AopAutoConfiguration.class,
				LineUnderTest.LOCKS))
		.withPropertyValues("distributed-lock.store=in-memory")
		.withBean(Counter.class)
		.withBean(Outer.class);

	private void run(ContextConsumer<AssertableApplicationContext> test) {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(ReactiveLockService.class);
			test.accept(context);
		});
	}

	@Test
	void concurrentSubscriptionsOfALockedMonoNeverOverlap() {
		run((context) -> {
			Counter counter = context.getBean(Counter.class);
			List<Integer> results = Flux.range(0, 50)
				.flatMap((i) -> counter.increment("apple"), 50)
				.collectList()
				.block(BOUND.multipliedBy(2));
			assertThat(results).hasSize(50).doesNotHaveDuplicates();
			assertThat(counter.value()).isEqualTo(50);
			assertThat(counter.overlaps()).isZero();
			assertThat(context.getBean(LockService.class).isLocked("count:apple")).isFalse();
		});
	}

	@Test
	void aLockedFutureMethodRunsOnlyUnderItsLock() {
		run((context) -> {
			Counter counter = context.getBean(Counter.class);
			List<CompletableFuture<Integer>> futures = IntStream.range(0, 30)
				.mapToObj((i) -> counter.incrementLater("pear"))
				.toList();
			CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(40, TimeUnit.SECONDS);
			assertThat(futures.stream().map(CompletableFuture::join).distinct()).hasSize(30);
			assertThat(counter.value()).isEqualTo(30);
			assertThat(counter.overlaps()).isZero();
		});
	}

	@Test
	void aFluxHoldsItsLockUntilItsLastElement() {
		run((context) -> {
			Counter counter = context.getBean(Counter.class);
			LockService locks = context.getBean(LockService.class);
			List<Boolean> lockedDuring = counter.elements("plum", 3)
				.map((i) -> locks.isLocked("count:plum"))
				.collectList()
				.block(BOUND);
			assertThat(lockedDuring).containsExactly(true, true, true);
			assertThat(locks.isLocked("count:plum")).isFalse();
		});
	}

	@Test
	void skipYieldsEmptyAndThrowFailsWhenTheLockIsHeld() {
		run((context) -> {
			Counter counter = context.getBean(Counter.class);
			ReactiveLockHandle held = context.getBean(ReactiveLockService.class)
				.tryLock("count:fig", Duration.ZERO, null)
				.block(BOUND);
			assertThat(held).isNotNull();
			assertThat(counter.skipped("fig").blockOptional(BOUND)).isEmpty();
			assertThat(counter.skippedLater("fig").get(20, TimeUnit.SECONDS)).isNull();
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> counter.thrown("fig").block(BOUND))
				.withMessageContaining("count:fig");
			assertThat(counter.value()).isZero();
			held.release().block(BOUND);
			assertThat(counter.skipped("fig").block(BOUND)).isZero();
			assertThat(counter.value()).isEqualTo(1);
		});
	}

	@Test
	void theFencingTokenIsInTheReactorContextAndNestedCallsReenter() {
		run((context) -> {
			Outer outer = context.getBean(Outer.class);
			List<Long> tokens = outer.tokens("kiwi").block(BOUND);
			assertThat(tokens).hasSize(2);
			assertThat(tokens.get(0)).isPositive().isEqualTo(tokens.get(1));
			assertThat(context.getBean(LockService.class).isLocked("count:kiwi")).isFalse();
		});
	}

	@Test
	void cancellationAndErrorsReleaseTheLock() {
		run((context) -> {
			Counter counter = context.getBean(Counter.class);
			LockService locks = context.getBean(LockService.class);
			CountDownLatch inside = new CountDownLatch(1);
			Disposable holding = counter.forever("lime", inside).subscribe();
			await().atMost(BOUND).until(() -> inside.getCount() == 0);
			assertThat(locks.isLocked("count:lime")).isTrue();
			holding.dispose();
			await().atMost(BOUND).until(() -> !locks.isLocked("count:lime"));
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> counter.failing("lime").block(BOUND))
				.withMessage("refused");
			assertThat(locks.isLocked("count:lime")).isFalse();
		});
	}

	@Test
	void aCollectionKeyLocksEveryId() {
		run((context) -> {
			Counter counter = context.getBean(Counter.class);
			LockService locks = context.getBean(LockService.class);
			List<Boolean> locked = counter
				.all(List.of("b", "a"), () -> List.of(locks.isLocked("count:a"), locks.isLocked("count:b")))
				.block(BOUND);
			assertThat(locked).containsExactly(true, true);
			assertThat(locks.isLocked("count:a") || locks.isLocked("count:b")).isFalse();
		});
	}

	static class Counter {

		private final AtomicInteger holders = new AtomicInteger();

		private final AtomicInteger overlaps = new AtomicInteger();

		private int value;

		@DistributedLock(name = "count", key = "#id")
		public Mono<Integer> increment(String id) {
			return Mono.fromCallable(this::enter)
				.delayElement(Duration.ofMillis(1))
				.map(this::leave)
				.subscribeOn(Schedulers.parallel());
		}

		@DistributedLock(name = "count", key = "#id", waitTime = "30s")
		public CompletableFuture<Integer> incrementLater(String id) {
			// Starts its work when called: the call itself must come under the lock.
			int read = enter();
			return CompletableFuture.supplyAsync(() -> leave(read),
					CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS));
		}

		@DistributedLock(name = "count", key = "#id")
		public Flux<Integer> elements(String id, int count) {
			return Flux.range(0, count).delayElements(Duration.ofMillis(5));
		}

		@DistributedLock(name = "count", key = "#id", waitTime = "0s", onFailure = OnLockFailure.SKIP)
		public Mono<Integer> skipped(String id) {
			return Mono.fromCallable(() -> leave(enter()));
		}

		@DistributedLock(name = "count", key = "#id", waitTime = "0s", onFailure = OnLockFailure.SKIP)
		public CompletableFuture<Integer> skippedLater(String id) {
			return CompletableFuture.completedFuture(leave(enter()));
		}

		@DistributedLock(name = "count", key = "#id", waitTime = "50ms")
		public Mono<Integer> thrown(String id) {
			return Mono.fromCallable(() -> leave(enter()));
		}

		@DistributedLock(name = "count", key = "#id")
		public Mono<Void> forever(String id, CountDownLatch inside) {
			return Mono.<Void>never().doOnSubscribe((subscription) -> inside.countDown());
		}

		@DistributedLock(name = "count", key = "#id")
		public Mono<Void> failing(String id) {
			return Mono.error(new IllegalStateException("refused"));
		}

		@DistributedLock(name = "count", key = "#id", waitTime = "0s")
		public Mono<Long> token(String id) {
			return ReactiveLockContext.current().map(ReactiveLockHandle::fencingToken);
		}

		@DistributedLock(name = "count", key = "#ids")
		public Mono<List<Boolean>> all(List<String> ids, Supplier<List<Boolean>> probe) {
			return Mono.fromSupplier(probe);
		}

		private int enter() {
			if (this.holders.incrementAndGet() != 1) {
				this.overlaps.incrementAndGet();
			}
			return this.value;
		}

		private int leave(int read) {
			this.value = read + 1;
			this.holders.decrementAndGet();
			return read;
		}

		int value() {
			return this.value;
		}

		int overlaps() {
			return this.overlaps.get();
		}

	}

	static class Outer {

		private final Counter counter;

		Outer(Counter counter) {
			this.counter = counter;
		}

		/** Its own token, then that seen by a nested locked call of the same id. */
		@DistributedLock(name = "count", key = "#id")
		public Mono<List<Long>> tokens(String id) {
			return ReactiveLockContext.current()
				.map(ReactiveLockHandle::fencingToken)
				.zipWith(this.counter.token(id), List::of);
		}

	}

}
