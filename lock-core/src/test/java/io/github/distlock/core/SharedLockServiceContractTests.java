package io.github.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.HeldLockInfo;
import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The contract of shared holds, {@link LockService#read()} and
 * {@link LockService#permits(int)}, held to every store that has them: READ holders share
 * an id and exclude WRITE (the exclusive lock), a waiting writer goes before new readers,
 * no upgrade, at most N permit holders, a dead holder's permit comes back, the permit
 * count is part of the id. Two or more services on one store, as application instances;
 * every wait bounded.
 */
public abstract class SharedLockServiceContractTests {

	private static final Duration BOUND = Duration.ofSeconds(20);

	/**
	 * A fixed lease short enough to run out while a test waits for it (see
	 * LockServiceContractTests).
	 */
	private static final Duration SHORT_LEASE = Duration.ofMillis(600);

	private final List<LockEngine> services = new ArrayList<>();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private String lockId;

	/**
	 * A new lock service on the store every service of this test shares.
	 * @param leaseTime the lease of its auto-renewed locks
	 * @return the service
	 */
	protected abstract LockEngine createService(Duration leaseTime);

	@BeforeEach
	void lockIdOfThisTest(TestInfo test) {
		this.lockId = "shared:" + test.getTestMethod().orElseThrow().getName() + ":" + UUID.randomUUID();
	}

	@AfterEach
	void shutDown() throws InterruptedException {
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		this.services.forEach(LockEngine::destroy);
	}

	private LockEngine newService() {
		return newService(Duration.ofSeconds(30));
	}

	/**
	 * A service whose store was reached once already, so that a first acquisition does
	 * not pay for connecting (which a short fixed lease may not outlast: the acquisition
	 * would be undone).
	 */
	private LockEngine newService(Duration leaseTime) {
		LockEngine service = createService(leaseTime);
		this.services.add(service);
		service.isLocked(this.lockId + ":connect");
		return service;
	}

	@Test
	void readHoldersOfTwoServicesShareTheIdAndExcludeAWriter() {
		LockEngine first = newService();
		LockEngine second = newService();
		try (LockHandle one = first.read().lock(this.lockId, Duration.ZERO);
				LockHandle two = second.read().lock(this.lockId, Duration.ZERO)) {
			assertThat(newService().tryLock(this.lockId, Duration.ofMillis(200), null)).isEmpty();
			assertThat(first.isLocked(this.lockId)).isTrue();
			assertThat(two.fencingToken()).isGreaterThan(one.fencingToken());
		}
		assertThat(first.isLocked(this.lockId)).isFalse();
		try (LockHandle write = second.lock(this.lockId, Duration.ZERO)) {
			assertThat(first.read().tryLock(this.lockId, Duration.ofMillis(200), null)).isEmpty();
		}
	}

	@Test
	void readersAndWritersOnTwoServicesNeverOverlap() throws Exception {
		List<LockService> views = new ArrayList<>();
		for (LockEngine service : List.of(newService(), newService())) {
			views.add(service);
			views.add(service.read());
			views.add(service.read());
		}
		AtomicInteger readers = new AtomicInteger();
		AtomicInteger writers = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger notAcquired = new AtomicInteger();
		AtomicInteger writes = new AtomicInteger();
		int iterations = 60;
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < 2 * views.size(); t++) {
			LockService view = views.get(t % views.size());
			boolean writer = (t % 3) == 0;
			workers.add(this.executor.submit(() -> {
				start.await();
				for (int i = 0; i < iterations; i++) {
					Optional<LockHandle> handle = view.tryLock(this.lockId, BOUND, null);
					if (handle.isEmpty()) {
						notAcquired.incrementAndGet();
						continue;
					}
					try (LockHandle held = handle.get()) {
						AtomicInteger mine = writer ? writers : readers;
						mine.incrementAndGet();
						if (writers.get() > 1 || (writers.get() == 1 && readers.get() > 0)) {
							overlaps.incrementAndGet();
						}
						if (writer) {
							writes.incrementAndGet();
						}
						LockSupport.parkNanos(100_000);
						if (writers.get() > 1 || (writers.get() == 1 && readers.get() > 0)) {
							overlaps.incrementAndGet();
						}
						mine.decrementAndGet();
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		System.out.printf("%s read/write: %d threads x %d iterations on 2 services: %d overlaps, %d not acquired%n",
				getClass().getSimpleName(), workers.size(), iterations, overlaps.get(), notAcquired.get());
		assertThat(overlaps).hasValue(0);
		assertThat(notAcquired).hasValue(0);
		assertThat(writes).hasValue(4 * iterations);
		assertThat(this.services.get(0).isLocked(this.lockId)).isFalse();
	}

	@Test
	void aWaitingWriterGoesBeforeNewReaders() throws Exception {
		LockEngine readers = newService();
		LockEngine writers = newService();
		LockHandle first = readers.read().lock(this.lockId, Duration.ZERO);
		Future<LockHandle> writer = this.executor.submit(() -> writers.lock(this.lockId, BOUND));
		// Once the writer waits, a new reader (of another service too) is refused.
		await().atMost(BOUND).until(() -> {
			Optional<LockHandle> reader = readers.read().tryLock(this.lockId, Duration.ZERO, null);
			reader.ifPresent(LockHandle::close);
			return reader.isEmpty();
		});
		Future<LockHandle> laterReader = this.executor.submit(() -> readers.read().lock(this.lockId, BOUND));
		assertThat(writer.isDone()).isFalse();
		first.close();
		try (LockHandle write = writer.get(BOUND.toSeconds(), TimeUnit.SECONDS)) {
			assertThat(write.fencingToken()).isGreaterThan(first.fencingToken());
			assertThat(laterReader.isDone()).isFalse();
		}
		try (LockHandle read = laterReader.get(BOUND.toSeconds(), TimeUnit.SECONDS)) {
			assertThat(read.isHeld()).isTrue();
		}
	}

	@Test
	void aThreadHoldingReadIsRefusedWriteAtOnce() {
		LockEngine service = newService();
		try (LockHandle read = service.read().lock(this.lockId, Duration.ZERO)) {
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> service.tryLock(this.lockId, BOUND, null))
				.withMessageContaining("'" + this.lockId + "'")
				.withMessageContaining("upgrade");
			assertThat(read.isHeld()).isTrue();
			try (LockHandle again = service.read().lock(this.lockId, Duration.ZERO)) {
				assertThat(again.fencingToken()).isEqualTo(read.fencingToken());
			}
			assertThat(read.isHeld()).isTrue();
		}
		assertThat(service.isLocked(this.lockId)).isFalse();
		assertThat(service.trackedLockCount()).isZero();
	}

	@Test
	void aThreadHoldingWriteMayTakeReadAsANestedHold() {
		LockEngine service = newService();
		try (LockHandle write = service.lock(this.lockId, Duration.ZERO)) {
			try (LockHandle read = service.read().lock(this.lockId, Duration.ZERO)) {
				assertThat(read.fencingToken()).isEqualTo(write.fencingToken());
			}
			assertThat(write.isHeld()).isTrue();
			assertThat(newService().read().tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		}
		assertThat(service.isLocked(this.lockId)).isFalse();
	}

	@Test
	void renewalKeepsEachReadHoldAndReleasingOneLeavesTheOthers() {
		LockEngine first = newService(Duration.ofMillis(300));
		LockEngine second = newService(Duration.ofMillis(300));
		LockHandle one = first.read().lock(this.lockId, Duration.ZERO);
		LockHandle two = second.read().lock(this.lockId, Duration.ZERO);
		// Several leases pass: the watchdogs renew each hold.
		await().pollDelay(Duration.ofMillis(1200)).atMost(BOUND).until(() -> true);
		assertThat(one.isHeld()).isTrue();
		assertThat(two.isHeld()).isTrue();
		one.close();
		assertThat(newService().tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		two.close();
		try (LockHandle write = newService().lock(this.lockId, Duration.ZERO)) {
			assertThat(write.isHeld()).isTrue();
		}
	}

	@Test
	void permitsAdmitAtMostNHoldersAcrossServices() throws Exception {
		LockEngine first = newService();
		LockEngine second = newService();
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger tooMany = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		AtomicInteger notAcquired = new AtomicInteger();
		AtomicInteger cycles = new AtomicInteger();
		int threads = 8;
		int iterations = 40;
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			LockService permits = ((t % 2 == 0) ? first : second).permits(3);
			workers.add(this.executor.submit(() -> {
				start.await();
				for (int i = 0; i < iterations; i++) {
					Optional<LockHandle> handle = permits.tryLock(this.lockId, BOUND, null);
					if (handle.isEmpty()) {
						notAcquired.incrementAndGet();
						continue;
					}
					try (LockHandle held = handle.get()) {
						int now = holders.incrementAndGet();
						most.accumulateAndGet(now, Math::max);
						if (now > 3) {
							tooMany.incrementAndGet();
						}
						cycles.incrementAndGet();
						// A moment's work, so that holds overlap.
						LockSupport.parkNanos(200_000);
						holders.decrementAndGet();
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		System.out.printf(
				"%s permits: %d threads x %d iterations, 3 permits on 2 services: most %d at once,"
						+ " %d times too many, %d not acquired%n",
				getClass().getSimpleName(), threads, iterations, most.get(), tooMany.get(), notAcquired.get());
		assertThat(tooMany).hasValue(0);
		assertThat(notAcquired).hasValue(0);
		assertThat(cycles).hasValue(threads * iterations);
		assertThat(first.isLocked(this.lockId)).isFalse();
	}

	@Test
	void theLastPermitIsRefusedUntilOneIsReleased() throws Exception {
		LockEngine first = newService();
		LockEngine second = newService();
		LockHandle one = first.permits(2).lock(this.lockId, Duration.ZERO);
		LockHandle two = second.permits(2).lock(this.lockId, Duration.ZERO);
		assertThat(two.fencingToken()).isGreaterThan(one.fencingToken());
		assertThat(newService().permits(2).tryLock(this.lockId, Duration.ofMillis(200), null)).isEmpty();
		Future<LockHandle> third = this.executor.submit(() -> second.permits(2).lock(this.lockId, BOUND));
		assertThat(third.isDone()).isFalse();
		one.close();
		try (LockHandle held = third.get(BOUND.toSeconds(), TimeUnit.SECONDS)) {
			assertThat(held.fencingToken()).isGreaterThan(two.fencingToken());
		}
		two.close();
		assertThat(first.isLocked(this.lockId)).isFalse();
	}

	/**
	 * As {@link java.util.concurrent.Semaphore}: each acquisition takes a permit of its
	 * own, a second one on the same thread too, so the fourth of 3 permits is not
	 * acquired while 3 are in use, on any thread or service (issue 39: the same thread
	 * got its first permit again, as a nested hold). READ holds stay reentrant, as
	 * {@code ReentrantReadWriteLock}'s.
	 */
	@Test
	void eachAcquisitionTakesAPermitOfItsOwnAlsoOnTheSameThread() throws Exception {
		LockEngine service = newService();
		LockEngine other = newService();
		LockService permits = service.permits(3);
		List<LockHandle> held = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			held.add(permits.lock(this.lockId, Duration.ZERO));
		}
		assertThat(held).extracting(LockHandle::fencingToken).doesNotHaveDuplicates();
		assertThat(held).allMatch(LockHandle::isHeld);
		assertThat(permits.tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		assertThat(permits.tryLock(this.lockId, Duration.ofMillis(200), null)).isEmpty();
		assertThat(other.permits(3).tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		assertThat(service.heldLocks()).hasSize(3);

		// The fourth, waiting on the same thread, gets the permit another thread gives
		// back.
		Future<?> giveBack = this.executor.submit(() -> held.get(1).close());
		try (LockHandle fourth = permits.lock(this.lockId, BOUND)) {
			assertThat(fourth.fencingToken()).isGreaterThan(held.get(2).fencingToken());
			giveBack.get(BOUND.toSeconds(), TimeUnit.SECONDS);
			assertThat(other.permits(3).tryLock(this.lockId, Duration.ZERO, null)).isEmpty();
		}
		held.get(0).close();
		held.get(2).close();
		assertThat(other.isLocked(this.lockId)).isFalse();
		assertThat(service.trackedLockCount()).isZero();

		// READ holds of one thread are still one hold, re-entered.
		try (LockHandle read = service.read().lock(this.lockId, Duration.ZERO);
				LockHandle again = service.read().lock(this.lockId, Duration.ZERO)) {
			assertThat(again.fencingToken()).isEqualTo(read.fencingToken());
			assertThat(service.heldLocks()).singleElement().extracting(HeldLockInfo::depth).isEqualTo(2);
		}
	}

	@Test
	void aPermitWhoseHolderStoppedRenewingComesBackWhenItsLeaseEnds() throws Exception {
		LockEngine dead = newService();
		LockEngine alive = newService();
		LockHandle gone = dead.permits(2).tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		LockHandle kept = alive.permits(2).lock(this.lockId, Duration.ZERO);
		// The fixed lease is never renewed, as a holder that died renews nothing.
		try (LockHandle returned = newService().permits(2).lock(this.lockId, BOUND)) {
			assertThat(returned.isHeld()).isTrue();
			assertThat(kept.isHeld()).isTrue();
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(gone::close);
		kept.close();
	}

	@Test
	void thePermitCountIsPartOfTheIdsIdentity() {
		LockEngine first = newService();
		LockEngine second = newService();
		try (LockHandle held = first.permits(3).lock(this.lockId, Duration.ZERO)) {
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> second.permits(2).tryLock(this.lockId, BOUND, null))
				.withMessageContaining("'" + this.lockId + "'")
				.withMessageContaining("a semaphore of 3 permits")
				.withMessageContaining("a semaphore of 2 permits");
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> second.read().tryLock(this.lockId, BOUND, null))
				.withMessageContaining("READ locks");
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> first.permits(2).tryLock(this.lockId, BOUND, null))
				.withMessageContaining("This thread holds");
			assertThat(held.isHeld()).isTrue();
		}
		// Once nobody holds it, another count may start afresh.
		try (LockHandle read = second.read().lock(this.lockId, Duration.ZERO)) {
			assertThat(read.isHeld()).isTrue();
		}
	}

	@Test
	void extendResetsTheLeaseOfOneHold() {
		LockEngine first = newService();
		LockEngine second = newService();
		LockHandle one = first.read().tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		LockHandle two = second.read().tryLock(this.lockId, Duration.ZERO, SHORT_LEASE).orElseThrow();
		assertThat(one.extend(BOUND)).isTrue();
		await().atMost(BOUND).until(() -> !two.isHeld());
		assertThat(one.isHeld()).isTrue();
		assertThat(first.isLocked(this.lockId)).isTrue();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(two::close);
		one.close();
		assertThat(first.isLocked(this.lockId)).isFalse();
	}

	@Test
	void viewsSayWhatTheyCannotDo() {
		LockEngine service = newService();
		assertThat(service.permits(1)).isSameAs(service);
		assertThat(service.read().read()).isSameAs(service.read());
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> service.permits(0))
			.withMessageContaining("permits must be at least 1, but was 0");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> service.read().fair());
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> service.permits(3).read());
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> service.read().permits(3));
	}

}
