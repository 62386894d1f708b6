package io.github.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@link io.github.distlock.LockService} contract, held to every store: two services
 * on one store, as two application instances would have them. Subclasses say how a
 * service is made; each {@link #newService()} call is a separate instance sharing the
 * subclass's store. Every wait is bounded; nothing asserts on elapsed time.
 */
public abstract class LockServiceContractTests {

	private static final Duration BOUND = Duration.ofSeconds(20);

	/**
	 * A fixed lease short enough to run out while a test waits for it, and long enough
	 * that the acquire's reply and the next check arrive before it ends on a loaded
	 * machine (200 ms did not, once, at load average 11: the reply came after the lease
	 * and the acquisition was undone, as it must be).
	 */
	private static final Duration SHORT_LEASE = Duration.ofMillis(600);

	private final List<LockEngine> services = new ArrayList<>();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private String lockId;

	/**
	 * A new lock service on the store every service of this test shares.
	 * @return the service, with the default auto-renewed lease
	 */
	protected abstract LockEngine createService();

	@BeforeEach
	void lockIdOfThisTest(TestInfo test) {
		this.lockId = "contract:" + test.getTestMethod().orElseThrow().getName() + ":" + UUID.randomUUID();
	}

	@AfterEach
	void shutDown() throws InterruptedException {
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		this.services.forEach(LockEngine::destroy);
	}

	private LockEngine newService() {
		LockEngine service = createService();
		this.services.add(service);
		return service;
	}

	@Test
	void mutualExclusionAcrossTwoServicesOnOneStore() throws Exception {
		LockEngine first = newService();
		LockEngine second = newService();
		int threads = 4;
		int iterations = 250;
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger notAcquired = new AtomicInteger();
		int[] unguarded = new int[1];
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			LockEngine service = (t % 2 == 0) ? first : second;
			workers.add(this.executor.submit(() -> {
				start.await();
				for (int i = 0; i < iterations; i++) {
					Optional<LockHandle> handle = service.tryLock(this.lockId, BOUND, null);
					if (handle.isEmpty()) {
						notAcquired.incrementAndGet();
						continue;
					}
					try (LockHandle held = handle.get()) {
						if (holders.incrementAndGet() != 1) {
							overlaps.incrementAndGet();
						}
						unguarded[0]++;
						holders.decrementAndGet();
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> worker : workers) {
			worker.get(2, TimeUnit.MINUTES);
		}
		System.out.printf(
				"%s mutual exclusion: %d threads x %d iterations on 2 services: %d increments,"
						+ " %d overlaps, %d not acquired%n",
				getClass().getSimpleName(), threads, iterations, unguarded[0], overlaps.get(), notAcquired.get());
		assertThat(overlaps).hasValue(0);
		assertThat(notAcquired).hasValue(0);
		assertThat(unguarded[0]).isEqualTo(threads * iterations);
		assertThat(first.isLocked(this.lockId)).isFalse();
		assertThat(first.trackedLockCount()).isZero();
		assertThat(second.trackedLockCount()).isZero();
	}

	@Test
	void theHoldingThreadReentersWithoutWaitingAndTheOutermostCloseReleases() {
		LockEngine service = newService();
		LockEngine other = newService();
		LockHandle outer = service.tryLock(this.lockId, Duration.ZERO, null).orElseThrow();
		LockHandle inner = service.tryLock(this.lockId, Duration.ZERO, null).orElseThrow();
		assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
		inner.close();
		assertThat(outer.isHeld()).isTrue();
		assertThat(other.isLocked(this.lockId)).isTrue();
		assertThat(other.tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		outer.close();
		assertThat(other.isLocked(this.lockId)).isFalse();
		try (LockHandle next = other.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
			assertThat(next.fencingToken()).isGreaterThan(outer.fencingToken());
		}
	}

	@Test
	void fencingTokensIncreaseAcrossServicesAndAfterALeaseRanOut() {
		LockEngine first = newService();
		LockEngine second = newService();
		long last = 0;
		for (int i = 0; i < 20; i++) {
			LockEngine service = (i % 2 == 0) ? first : second;
			try (LockHandle handle = service.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
				assertThat(handle.fencingToken()).isGreaterThan(last);
				last = handle.fencingToken();
			}
		}
		LockHandle expiring = first.tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		assertThat(expiring.fencingToken()).isGreaterThan(last);
		awaitUnlocked(second);
		try (LockHandle next = second.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
			assertThat(next.fencingToken()).isGreaterThan(expiring.fencingToken());
			last = next.fencingToken();
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(expiring::close);
		try (LockHandle again = first.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
			assertThat(again.fencingToken()).isGreaterThan(last);
		}
	}

	@Test
	void tryLockWithoutWaitingOnAHeldLockReturnsEmpty() {
		LockEngine holder = newService();
		LockEngine other = newService();
		try (LockHandle held = holder.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
			assertThat(other.tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
			assertThat(other.tryLock(this.lockId, Duration.ofMillis(50), null)).isEmpty();
			assertThat(held.isHeld()).isTrue();
			assertThat(other.trackedLockCount()).isZero();
		}
	}

	@Test
	void aWaiterGetsTheLockOnceTheHolderReleases() throws Exception {
		LockEngine holder = newService();
		LockEngine waiting = newService();
		LockHandle held = holder.tryLock(this.lockId, Duration.ZERO, null).orElseThrow();
		Future<Long> waiter = this.executor.submit(() -> {
			try (LockHandle handle = waiting.tryLock(this.lockId, Duration.ofMinutes(1), null).orElseThrow()) {
				return handle.fencingToken();
			}
		});
		// The waiter is queued on its service before the holder lets go.
		await().atMost(BOUND).until(() -> waiting.trackedLockCount() == 1);
		assertThat(waiter).isNotDone();
		held.close();
		assertThat(waiter.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isGreaterThan(held.fencingToken());
		assertThat(waiting.trackedLockCount()).isZero();
	}

	@Test
	void aFixedLeaseRunsOutAndFreesTheLock() {
		LockEngine holder = newService();
		LockEngine other = newService();
		LockHandle expiring = holder.tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		assertThat(other.isLocked(this.lockId)).isTrue();
		awaitUnlocked(other);
		try (LockHandle next = other.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
			assertThat(next.isHeld()).isTrue();
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(expiring::close);
	}

	@Test
	void closeWithAMinimumHoldKeepsTheLockUntilItPassed() {
		LockEngine holder = newService();
		LockEngine other = newService();
		LockHandle handle = holder.tryLock(this.lockId, Duration.ZERO, null).orElseThrow();
		handle.close(Duration.ofMillis(500));
		assertThat(other.isLocked(this.lockId)).isTrue();
		assertThat(other.tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		await().atMost(BOUND).until(() -> !other.isLocked(this.lockId));
		other.tryLock(this.lockId, Duration.ZERO, null).orElseThrow().close();
	}

	@Test
	void aLostLocksCloseThrowsAndLeavesTheNextHoldersLock() {
		LockEngine first = newService();
		LockEngine second = newService();
		LockEngine third = newService();
		LockHandle lost = first.tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		awaitUnlocked(second);
		LockHandle next = second.tryLock(this.lockId, Duration.ZERO, null).orElseThrow();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::close)
			.satisfies((ex) -> assertThat(ex.getMessage()).contains(this.lockId));
		assertThat(next.isHeld()).isTrue();
		assertThat(third.isLocked(this.lockId)).isTrue();
		assertThat(third.tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		next.close();
		assertThat(third.isLocked(this.lockId)).isFalse();
	}

	@Test
	void closeIsIdempotent() {
		LockEngine first = newService();
		LockEngine second = newService();
		LockHandle handle = first.tryLock(this.lockId, Duration.ZERO, null).orElseThrow();
		handle.close();
		handle.close();
		handle.close(Duration.ofSeconds(5));
		assertThat(handle.isHeld()).isFalse();
		try (LockHandle next = second.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
			handle.close();
			assertThat(next.isHeld()).isTrue();
			assertThat(first.isLocked(this.lockId)).isTrue();
			assertThat(first.tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		}
		assertThat(first.trackedLockCount()).isZero();
	}

	@Test
	void aFixedLeaseTakenMeanwhileCannotBeExtendedAndIsCountedLostOnceWhenClosed() {
		LockEngine first = newService();
		LockEngine second = newService();
		LockHandle lost = first.tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		awaitUnlocked(second);
		try (LockHandle next = second.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
			assertThat(lost.extend(Duration.ofSeconds(10))).isFalse();
			assertThat(lost.isHeld()).isFalse();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::close);
			assertThat(first.locksLost()).isEqualTo(1);
			lost.close();
			assertThat(first.locksLost()).isEqualTo(1);
			assertThat(next.isHeld()).isTrue();
			assertThat(second.isLocked(this.lockId)).isTrue();
			assertThat(second.locksLost()).isZero();
		}
	}

	@Test
	void aFixedLeaseTakenMeanwhileIsCountedLostWhenClosed() {
		LockEngine first = newService();
		LockEngine second = newService();
		LockHandle lost = first.tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		awaitUnlocked(second);
		try (LockHandle next = second.tryLock(this.lockId, Duration.ZERO, null).orElseThrow()) {
			assertThat(first.locksLost()).isZero();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(lost::close);
			assertThat(first.locksLost()).isEqualTo(1);
			assertThat(next.isHeld()).isTrue();
		}
	}

	/**
	 * A fixed-lease handle its thread never closed (a pool's worker that forgot it) does
	 * not block that thread: once the lease ran out, the thread's next acquisition of the
	 * id acquires it afresh and reports the old loss (listener and count, once); the old
	 * handle's close still throws and leaves the new hold alone (issue 39).
	 */
	@Test
	void aHandleLeftOpenAfterItsFixedLeaseRanOutNeitherBlocksItsThreadNorGoesUnreported() throws Exception {
		LockEngine service = newService();
		LockEngine other = newService();
		BlockingQueue<LostLock> lost = new LinkedBlockingQueue<>();
		service.setLockLostListener(lost::add);
		// Connected before the short lease starts.
		service.isLocked(this.lockId);
		LockHandle forgotten = service.tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		long forgottenToken = forgotten.fencingToken();
		await().atMost(BOUND).until(() -> !forgotten.isHeld());
		assertThat(lost).isEmpty();

		try (LockHandle again = service.lock(this.lockId, BOUND)) {
			assertThat(again.isHeld()).isTrue();
			assertThat(again.fencingToken()).isGreaterThan(forgottenToken);
			LostLock loss = lost.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
			assertThat(loss).as("the LockLostListener told of the forgotten hold").isNotNull();
			assertThat(loss.lockId()).isEqualTo(this.lockId);
			assertThat(loss.fencingToken()).isEqualTo(forgottenToken);
			assertThat(service.locksLost()).isEqualTo(1);

			assertThatExceptionOfType(LockLostException.class).isThrownBy(forgotten::close)
				.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo(this.lockId));
			assertThat(again.isHeld()).isTrue();
			assertThat(other.tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
			assertThat(service.locksLost()).isEqualTo(1);
			// Nested again: the new hold is the one re-entered.
			try (LockHandle nested = service.lock(this.lockId, Duration.ZERO)) {
				assertThat(nested.fencingToken()).isEqualTo(again.fencingToken());
			}
		}
		assertThat(other.isLocked(this.lockId)).isFalse();
		assertThat(service.trackedLockCount()).isZero();
		assertThat(lost).isEmpty();
	}

	private void awaitUnlocked(LockEngine service) {
		await().atMost(BOUND).until(() -> !service.isLocked(this.lockId));
	}

}
