package io.github.distlock.core;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.ReactiveLockContext;
import io.github.distlock.ReactiveLockHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@link io.github.distlock.ReactiveLockService} contract, held to every store: two
 * services on one store, as two application instances would have them. Every wait is
 * bounded; nothing asserts on elapsed time.
 */
public abstract class ReactiveLockServiceContractTests {

	private static final Duration BOUND = Duration.ofSeconds(20);

	private final List<ReactiveLockEngine> services = new ArrayList<>();

	private String lockId;

	/**
	 * A new reactive lock service on the store every service of this test shares.
	 * @param leaseTime the lease of auto-renewed locks
	 * @return the service
	 */
	protected abstract ReactiveLockEngine createService(Duration leaseTime);

	@BeforeEach
	void lockIdOfThisTest(TestInfo test) {
		this.lockId = "reactive:" + test.getTestMethod().orElseThrow().getName() + ":" + UUID.randomUUID();
	}

	@AfterEach
	void shutDown() {
		this.services.forEach(ReactiveLockEngine::close);
	}

	private ReactiveLockEngine newService() {
		return newService(Duration.ofSeconds(30));
	}

	private ReactiveLockEngine newService(Duration leaseTime) {
		ReactiveLockEngine service = createService(leaseTime);
		this.services.add(service);
		return service;
	}

	@Test
	void concurrentSubscriptionsOnTwoServicesNeverOverlapAndCountExactly() {
		ReactiveLockEngine first = newService();
		ReactiveLockEngine second = newService();
		int subscriptions = 60;
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		int[] counter = { 0 };
		Flux<Integer> all = Flux.range(0, subscriptions).flatMap((i) -> {
			ReactiveLockEngine service = (i % 2 == 0) ? first : second;
			Mono<Integer> increment = Mono.fromCallable(() -> {
				if (holders.incrementAndGet() != 1) {
					overlaps.incrementAndGet();
				}
				return counter[0];
			}).delayElement(Duration.ofMillis(2)).map((read) -> {
				counter[0] = read + 1;
				holders.decrementAndGet();
				return read;
			});
			return service.executeLocked(this.lockId, BOUND, increment);
		}, subscriptions);
		assertThat(all.collectList().block(BOUND.multipliedBy(3))).hasSize(subscriptions);
		assertThat(overlaps).hasValue(0);
		assertThat(counter[0]).isEqualTo(subscriptions);
		assertThat(first.heldLockCount() + second.heldLockCount()).isZero();
		assertThat(first.isLocked(this.lockId).block(BOUND)).isFalse();
	}

	@Test
	void cancellingAWaitingSubscriptionLeavesNothingBehind() {
		ReactiveLockEngine first = newService();
		ReactiveLockEngine second = newService();
		ReactiveLockHandle held = first.tryLock(this.lockId, Duration.ZERO, null).block(BOUND);
		assertThat(held).isNotNull();
		AtomicBoolean ran = new AtomicBoolean();
		CountDownLatch subscribed = new CountDownLatch(1);
		Disposable waiting = second.executeLocked(this.lockId, BOUND, Mono.fromRunnable(() -> ran.set(true)))
			.doOnSubscribe((subscription) -> subscribed.countDown())
			.subscribe();
		await().atMost(BOUND).until(() -> subscribed.getCount() == 0);
		// Its first attempt queued it in stores that grant: wait until it was refused.
		await().atMost(BOUND).until(() -> first.isLocked(this.lockId).block(BOUND));
		waiting.dispose();
		held.release().block(BOUND);
		// Nothing was granted to the cancelled waiter: the lock is free for anyone at
		// once.
		await().atMost(BOUND).untilAsserted(() -> {
			ReactiveLockHandle next = first.tryLock(this.lockId, Duration.ZERO, null).block(BOUND);
			assertThat(next).isNotNull();
			next.release().block(BOUND);
		});
		assertThat(ran).isFalse();
		assertThat(second.heldLockCount()).isZero();
	}

	@Test
	void cancellingAHoldingSubscriptionReleasesTheLock() {
		ReactiveLockEngine service = newService();
		CountDownLatch holding = new CountDownLatch(1);
		Disposable held = service
			.executeLocked(this.lockId, BOUND, Mono.never().doOnSubscribe((subscription) -> holding.countDown()))
			.subscribe();
		await().atMost(BOUND).until(() -> holding.getCount() == 0);
		assertThat(service.isLocked(this.lockId).block(BOUND)).isTrue();
		held.dispose();
		await().atMost(BOUND).until(() -> !service.isLocked(this.lockId).block(BOUND));
		assertThat(service.heldLockCount()).isZero();
	}

	@Test
	void anErrorReleasesTheLockAndReachesTheSubscriber() {
		ReactiveLockEngine service = newService();
		Mono<Object> failing = service.executeLocked(this.lockId, BOUND,
				Mono.error(new IllegalStateException("payment refused")));
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> failing.block(BOUND))
			.withMessage("payment refused");
		assertThat(service.isLocked(this.lockId).block(BOUND)).isFalse();
	}

	@Test
	void aSlowActionKeepsItsLockRenewed() {
		ReactiveLockEngine holder = newService(Duration.ofMillis(300));
		ReactiveLockEngine other = newService(Duration.ofMillis(300));
		CountDownLatch started = new CountDownLatch(1);
		AtomicReference<ReactiveLockHandle> refused = new AtomicReference<>();
		// Three leases long, while the other service tries: always refused.
		Mono<String> slow = Mono.delay(Duration.ofMillis(900))
			.doOnSubscribe((subscription) -> started.countDown())
			.map((tick) -> "done");
		Mono<String> locked = holder.executeLocked(this.lockId, BOUND, slow)
			.doOnSubscribe((subscription) -> new Thread(() -> {
				try {
					started.await(BOUND.toMillis(), TimeUnit.MILLISECONDS);
					for (int i = 0; i < 8; i++) {
						ReactiveLockHandle handle = other.tryLock(this.lockId, Duration.ofMillis(100), null)
							.block(BOUND);
						if (handle != null) {
							refused.set(handle);
							return;
						}
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}).start());
		assertThat(locked.block(BOUND)).isEqualTo("done");
		assertThat(refused.get()).isNull();
		assertThat(holder.locksLost()).isZero();
	}

	@Test
	void aHoldWithALongLeaseIsRenewedByTheSweep() {
		// Renewed every 1.1 s: by the sweep, in one call with the other holds due.
		ReactiveLockEngine holder = newService(Duration.ofMillis(3_300));
		ReactiveLockEngine other = newService();
		ReactiveLockHandle held = holder.tryLock(this.lockId, Duration.ZERO, null).block(BOUND);
		assertThat(held).isNotNull();
		// Past the lease, and more: the other service is refused all along.
		assertThat(other.tryLock(this.lockId, Duration.ofMillis(5_000), null).block(BOUND)).isNull();
		assertThat(held.isHeld()).isTrue();
		held.release().block(BOUND);
		assertThat(holder.locksLost()).isZero();
	}

	@Test
	void aLockNotAcquiredInTimeFailsTheActionOrYieldsNothing() {
		ReactiveLockEngine first = newService();
		ReactiveLockEngine second = newService();
		ReactiveLockHandle held = first.tryLock(this.lockId, Duration.ZERO, null).block(BOUND);
		assertThat(held).isNotNull();
		AtomicBoolean ran = new AtomicBoolean();
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> second
				.executeLocked(this.lockId, Duration.ofMillis(50), Mono.fromRunnable(() -> ran.set(true)))
				.block(BOUND))
			.withMessageContaining(this.lockId);
		assertThat(second.tryLock(this.lockId, Duration.ofMillis(50), null).block(BOUND)).isNull();
		assertThat(ran).isFalse();
		held.release().block(BOUND);
	}

	@Test
	void aWaitLongerThanNanosecondsCountWaitsForTheLock() {
		ReactiveLockEngine first = newService();
		ReactiveLockEngine second = newService();
		ReactiveLockHandle held = first.tryLock(this.lockId, Duration.ZERO, null).block(BOUND);
		assertThat(held).isNotNull();
		AtomicReference<ReactiveLockHandle> waited = new AtomicReference<>();
		Disposable waiting = second.tryLock(this.lockId, ChronoUnit.FOREVER.getDuration(), null).subscribe(waited::set);
		held.release().block(BOUND);
		await().atMost(BOUND).until(() -> waited.get() != null);
		waited.get().release().block(BOUND);
		waiting.dispose();
	}

	@Test
	void aPipelineReentersItsOwnLockAndSeesItsHandle() {
		ReactiveLockEngine service = newService();
		Mono<Long> inner = service.executeLocked(this.lockId, Duration.ZERO,
				ReactiveLockContext.current().map(ReactiveLockHandle::fencingToken));
		Mono<List<Long>> outer = service.executeLocked(this.lockId, BOUND,
				ReactiveLockContext.current().map(ReactiveLockHandle::fencingToken).zipWith(inner, List::of));
		List<Long> tokens = outer.block(BOUND);
		assertThat(tokens).hasSize(2);
		assertThat(tokens.get(0)).isPositive().isEqualTo(tokens.get(1));
		assertThat(service.isLocked(this.lockId).block(BOUND)).isFalse();
	}

	@Test
	void fencingTokensIncreaseAcrossServices() {
		ReactiveLockEngine first = newService();
		ReactiveLockEngine second = newService();
		long previous = 0;
		for (int i = 0; i < 6; i++) {
			ReactiveLockEngine service = (i % 2 == 0) ? first : second;
			long token = service
				.executeLocked(this.lockId, BOUND, ReactiveLockContext.current().map(ReactiveLockHandle::fencingToken))
				.block(BOUND);
			assertThat(token).isGreaterThan(previous);
			previous = token;
		}
	}

	@Test
	void aLockWhoseFixedLeaseRanOutFailsItsRelease() {
		ReactiveLockEngine service = newService();
		ReactiveLockHandle handle = service.tryLock(this.lockId, Duration.ZERO, Duration.ofMillis(100)).block(BOUND);
		assertThat(handle).isNotNull();
		await().atMost(BOUND).until(() -> !handle.isHeld());
		await().atMost(BOUND).until(() -> !service.isLocked(this.lockId).block(BOUND));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> handle.release().block(BOUND))
			.withMessageContaining(this.lockId);
		// Idempotent: reported once.
		handle.release().block(BOUND);
	}

	@Test
	void aLockLostWhileTheActionRanFailsItsResult() {
		ReactiveLockEngine service = newService();
		// A fixed lease shorter than the action: it runs out while the action runs.
		Flux<String> outlived = service.executeLocked(this.lockId, BOUND, Duration.ofMillis(100), Duration.ZERO,
				Mono.defer(() -> waitUntilFree(service)).thenReturn("done").flux());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> outlived.blockLast(BOUND))
			.withMessageContaining(this.lockId);
		Flux<String> failed = service.executeLocked(this.lockId, BOUND, Duration.ofMillis(100), Duration.ZERO,
				Mono.defer(() -> waitUntilFree(service))
					.then(Mono.<String>error(new IllegalStateException("refused")))
					.flux());
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> failed.blockLast(BOUND))
			.withMessage("refused")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).hasAtLeastOneElementOfType(LockLostException.class));
	}

	/** Completes once the lock's fixed lease ran out in the store. */
	private Mono<Void> waitUntilFree(ReactiveLockEngine service) {
		return service.isLocked(this.lockId)
			.filter((locked) -> !locked)
			.repeatWhenEmpty((empty) -> empty.delayElements(Duration.ofMillis(10)))
			.timeout(BOUND)
			.then();
	}

	@Test
	void aFluxHoldsTheLockUntilItsLastElementOrItsCancellation() {
		ReactiveLockEngine service = newService();
		ReactiveLockEngine other = newService();
		List<Boolean> lockedDuring = service
			.executeLocked(this.lockId, BOUND, Flux.range(0, 3).concatMap((i) -> other.isLocked(this.lockId)))
			.collectList()
			.block(BOUND);
		assertThat(lockedDuring).containsExactly(true, true, true);
		assertThat(service.isLocked(this.lockId).block(BOUND)).isFalse();
		Long first = service.executeLocked(this.lockId, BOUND, Flux.interval(Duration.ofMillis(5))).next().block(BOUND);
		assertThat(first).isZero();
		await().atMost(BOUND).until(() -> !service.isLocked(this.lockId).block(BOUND));
	}

	@Test
	void aShutdownEndsWaitsAndReleasesHolds() {
		ReactiveLockEngine first = newService();
		ReactiveLockEngine second = newService();
		ReactiveLockHandle held = second.tryLock(this.lockId, Duration.ZERO, null).block(BOUND);
		AtomicReference<Throwable> waitFailure = new AtomicReference<>();
		CountDownLatch ended = new CountDownLatch(1);
		first.tryLock(this.lockId + ":other", Duration.ZERO, null).block(BOUND);
		second.tryLock(this.lockId + ":other", BOUND, null).subscribe((handle) -> ended.countDown(), (failure) -> {
			waitFailure.set(failure);
			ended.countDown();
		}, ended::countDown);
		second.close();
		await().atMost(BOUND).until(() -> ended.getCount() == 0);
		assertThat(waitFailure.get()).isInstanceOf(LockNotAcquiredException.class);
		assertThat(first.isLocked(this.lockId).block(BOUND)).isFalse();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> held.release().block(BOUND));
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> second.tryLock(this.lockId, Duration.ZERO, null).block(BOUND));
	}

	@Test
	void subscriptionsCancelledAsTheLockArrivesLeaveItFree() {
		ReactiveLockEngine first = newService();
		ReactiveLockEngine second = newService();
		for (int i = 0; i < 200; i++) {
			first.executeLocked(this.lockId, BOUND, Mono.just(i)).subscribe().dispose();
			// A subscriber that cancels at once, and gives back whatever still reaches
			// it.
			first.tryLock(this.lockId, BOUND, null).subscribe(new BaseSubscriber<ReactiveLockHandle>() {

				@Override
				protected void hookOnSubscribe(Subscription subscription) {
					subscription.request(1);
					cancel();
				}

				@Override
				protected void hookOnNext(ReactiveLockHandle handle) {
					handle.release().subscribe();
				}

			});
		}
		await().atMost(BOUND).until(() -> first.heldLockCount() == 0);
		await().atMost(BOUND).untilAsserted(() -> {
			ReactiveLockHandle next = second.tryLock(this.lockId, Duration.ZERO, null).block(BOUND);
			assertThat(next).isNotNull();
			next.release().block(BOUND);
		});
	}

}
