package io.github.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.MultiLockHandle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The multi-key contract of {@link io.github.distlock.LockService#tryLockAll}, held to
 * every store: all or none, no deadlock whatever order callers name the ids in, the loss
 * of one lock is the loss of the handle, a fencing token per id. Two services on one
 * store, as two application instances; every wait bounded.
 */
public abstract class MultiLockServiceContractTests {

	private static final Duration BOUND = Duration.ofSeconds(20);

	private final List<LockEngine> services = new ArrayList<>();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private String prefix;

	/**
	 * A new lock service on the store every service of this test shares.
	 * @return the service, with the default auto-renewed lease
	 */
	protected abstract LockEngine createService();

	@BeforeEach
	void idsOfThisTest(TestInfo test) {
		this.prefix = "multi:" + test.getTestMethod().orElseThrow().getName() + ":" + UUID.randomUUID() + ":";
	}

	@AfterEach
	void shutDown() throws InterruptedException {
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		this.services.forEach(LockEngine::destroy);
	}

	@Test
	void oppositeOrdersFromManyThreadsOnTwoServicesNeitherDeadlockNorOverlap() throws Exception {
		LockEngine first = newService();
		LockEngine second = newService();
		List<String> ids = List.of(id("a"), id("b"), id("c"));
		Map<String, AtomicInteger> holders = new ConcurrentHashMap<>();
		ids.forEach((id) -> holders.put(id, new AtomicInteger()));
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger notAcquired = new AtomicInteger();
		int[] counts = new int[ids.size()];
		int threads = 6;
		int iterations = 60;
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			LockEngine service = (t % 2 == 0) ? first : second;
			// Every order of two of the three ids, and all three backwards.
			List<String> named = switch (t % 3) {
				case 0 -> List.of(ids.get(0), ids.get(1));
				case 1 -> List.of(ids.get(1), ids.get(0));
				default -> List.of(ids.get(2), ids.get(1), ids.get(0));
			};
			workers.add(this.executor.submit(() -> {
				start.await();
				for (int i = 0; i < iterations; i++) {
					Optional<LockHandle> handle = service.tryLockAll(named, BOUND, null);
					if (handle.isEmpty()) {
						notAcquired.incrementAndGet();
						continue;
					}
					try (LockHandle held = handle.get()) {
						named.forEach((id) -> {
							if (holders.get(id).incrementAndGet() != 1) {
								overlaps.incrementAndGet();
							}
						});
						named.forEach((id) -> counts[ids.indexOf(id)]++);
						named.forEach((id) -> holders.get(id).decrementAndGet());
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		int pairs = threads / 3 * iterations;
		System.out.printf(
				"%s multi-key: %d threads x %d iterations in opposite orders on 2 services:"
						+ " %d overlaps, %d not acquired%n",
				getClass().getSimpleName(), threads, iterations, overlaps.get(), notAcquired.get());
		assertThat(overlaps).hasValue(0);
		assertThat(notAcquired).hasValue(0);
		assertThat(counts).containsExactly(3 * pairs, 3 * pairs, pairs);
		ids.forEach((id) -> assertThat(first.isLocked(id)).as(id).isFalse());
	}

	@Test
	void oneIdHeldElsewhereGetsNoneAndLeavesNothingHeld() {
		LockEngine holder = newService();
		LockEngine caller = newService();
		try (LockHandle held = holder.lock(id("b"), Duration.ZERO)) {
			assertThat(caller.tryLockAll(List.of(id("c"), id("b"), id("a")), Duration.ofMillis(200), null)).isEmpty();
			assertThat(caller.isLocked(id("a"))).isFalse();
			assertThat(caller.isLocked(id("c"))).isFalse();
			assertThat(caller.trackedLockCount()).isZero();
		}
	}

	@Test
	void aWaiterGetsAllOnceTheLastHolderReleases() throws Exception {
		LockEngine holder = newService();
		LockEngine caller = newService();
		LockHandle held = holder.lock(id("b"), Duration.ZERO);
		Future<Optional<LockHandle>> waiting = this.executor
			.submit(() -> caller.tryLockAll(List.of(id("b"), id("a")), BOUND, null));
		await().atMost(BOUND).until(() -> caller.isLocked(id("a")));
		held.close();
		try (LockHandle all = waiting.get(BOUND.toSeconds(), TimeUnit.SECONDS).orElseThrow()) {
			assertThat(all.isHeld()).isTrue();
			assertThat(((MultiLockHandle) all).lockIds()).containsExactly(id("a"), id("b"));
		}
		assertThat(caller.isLocked(id("a"))).isFalse();
		assertThat(caller.isLocked(id("b"))).isFalse();
	}

	@Test
	void aFixedLeaseThatRanOutWhileALaterIdWasAwaitedIsTakenAgain() throws Exception {
		LockEngine holder = newService();
		LockEngine caller = newService();
		LockHandle held = holder.lock(id("b"), Duration.ZERO);
		Future<Optional<LockHandle>> waiting = this.executor
			.submit(() -> caller.tryLockAll(List.of(id("a"), id("b")), BOUND, Duration.ofMillis(600)));
		await().atMost(BOUND).until(() -> caller.isLocked(id("a")));
		// a's fixed lease runs out while b is awaited; then b comes free.
		await().atMost(BOUND).until(() -> !caller.isLocked(id("a")));
		held.close();
		MultiLockHandle all = (MultiLockHandle) waiting.get(BOUND.toSeconds(), TimeUnit.SECONDS).orElseThrow();
		assertThat(all.handles()).allSatisfy((handle) -> assertThat(handle.isHeld()).isTrue());
		assertThat(all.fencingTokens()).containsOnlyKeys(id("a"), id("b"));
		all.close();
	}

	@Test
	void eachIdHasItsTokenAndTheHandlesTokenGrowsFromOneAcquisitionToTheNext() {
		LockEngine service = newService();
		List<String> ids = List.of(id("x"), id("y"), id("x"));
		MultiLockHandle first = (MultiLockHandle) service.tryLockAll(ids, Duration.ZERO, null).orElseThrow();
		Map<String, Long> firstTokens = first.fencingTokens();
		assertThat(firstTokens).containsOnlyKeys(id("x"), id("y"));
		assertThat(first.fencingToken())
			.isEqualTo(firstTokens.values().stream().mapToLong(Long::longValue).max().orElseThrow());
		first.close();
		try (MultiLockHandle second = (MultiLockHandle) newService().tryLockAll(ids, Duration.ZERO, null)
			.orElseThrow()) {
			second.fencingTokens().forEach((id, token) -> assertThat(token).as(id).isGreaterThan(firstTokens.get(id)));
			assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
		}
	}

	@Test
	void losingOneLockLosesTheHandleAndItsCloseReleasesTheOthers() {
		LockEngine service = newService();
		LockEngine other = newService();
		MultiLockHandle all = (MultiLockHandle) service
			.tryLockAll(List.of(id("a"), id("b")), Duration.ZERO, Duration.ofSeconds(1))
			.orElseThrow();
		// a stays held; b's fixed lease runs out and another instance takes it.
		assertThat(all.handles().get(0).extend(Duration.ofMinutes(1))).isTrue();
		await().atMost(BOUND).until(() -> !all.handles().get(1).isHeld());
		try (LockHandle taken = other.lock(id("b"), BOUND)) {
			assertThat(all.isHeld()).isFalse();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(all::close);
			assertThat(other.isLocked(id("a"))).isFalse();
			assertThat(taken.isHeld()).isTrue();
		}
	}

	@Test
	void anEmptyOrBlankIdIsRefusedNamingIt() {
		LockEngine service = newService();
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> service.tryLockAll(List.of(), Duration.ZERO, null))
			.withMessageContaining("at least one lock id");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> service.tryLockAll(List.of(id("a"), " "), Duration.ZERO, null))
			.withMessageContaining("null or blank");
		assertThat(service.isLocked(id("a"))).isFalse();
	}

	private String id(String name) {
		return this.prefix + name;
	}

	private LockEngine newService() {
		LockEngine service = createService();
		this.services.add(service);
		return service;
	}

}
