package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The reactive callers of the scenarios: all of them in flight at once without a thread
 * each, every caller's cycles one after the other, a failure reported. Without Redis;
 * timing is not asserted beyond the cycles ending.
 */
class SubscriptionsTests {

	@Test
	void allCallersAreInFlightAtOnceOnAFewThreads() {
		int callers = 200;
		AtomicInteger inFlight = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		AtomicLongArray cycles = new AtomicLongArray(callers);
		Set<String> threads = ConcurrentHashMap.newKeySet();
		long deadline = System.nanoTime() + Duration.ofMillis(300).toNanos();
		Subscriptions.run("test", callers, deadline, 30_000, (caller) -> Mono.fromRunnable(() -> {
			most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
			threads.add(Thread.currentThread().getName());
		}).then(Mono.delay(Duration.ofMillis(20))).doOnNext((tick) -> {
			inFlight.decrementAndGet();
			threads.add(Thread.currentThread().getName());
		}).thenReturn(true), (caller, acquired, nanos) -> {
			assertThat(acquired).isTrue();
			assertThat(nanos).isPositive();
			cycles.incrementAndGet(caller);
		});
		// Every caller waited on its delay together with all the others, and every cycle
		// was subscribed to and completed on the calling thread or the scheduler's few
		// threads: no thread per caller.
		assertThat(most.get()).isEqualTo(callers);
		String testThread = Thread.currentThread().getName();
		assertThat(threads).allSatisfy((name) -> assertThat(name).matches(
				(candidate) -> candidate.equals(testThread) || candidate.startsWith("parallel-"),
				"calling or parallel"))
			.hasSizeLessThanOrEqualTo(Schedulers.DEFAULT_POOL_SIZE + 1);
		for (int caller = 0; caller < callers; caller++) {
			assertThat(cycles.get(caller)).as("caller %d", caller).isPositive();
		}
		assertThat(inFlight.get()).isZero();
	}

	@Test
	void aFailedCycleFailsTheRunWithItsCause() {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		assertThatIllegalStateException().isThrownBy(() -> Subscriptions.run("failing", 4, deadline, 30_000,
				(caller) -> Mono.error(new IllegalArgumentException("boom " + caller)), (caller, acquired, nanos) -> {
				}))
			.withMessageContaining("failing subscriptions failed")
			.withRootCauseInstanceOf(IllegalArgumentException.class);
	}

}
