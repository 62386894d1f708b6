package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.function.IntFunction;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The reactive counterpart of {@link Workers}: N callers as N concurrent subscription
 * chains, each subscribing to one lock cycle after the other until a deadline. The
 * calling thread waits once for all of them; the cycles run on the clients' own threads
 * (their event loops, Reactor's schedulers), none of which waits for a lock.
 */
final class Subscriptions {

	private Subscriptions() {
	}

	/**
	 * Runs {@code callers} chains at once and waits for all of them.
	 * @param cycle the lock cycle of caller {@code i}, subscribed to anew for each cycle:
	 * emits whether the lock was acquired
	 * @param outcome told of each cycle: the caller, whether it acquired, and the time
	 * from subscription to the cycle's result
	 * @throws IllegalStateException if a cycle failed (as cause) or the chains did not
	 * end within {@code timeoutMillis}
	 */
	static void run(String name, int callers, long deadlineNanos, long timeoutMillis, IntFunction<Mono<Boolean>> cycle,
			Outcome outcome) {
		Mono<Void> all = Flux.range(0, callers)
			.flatMap((caller) -> chain(caller, deadlineNanos, cycle, outcome), callers)
			.then();
		try {
			all.block(Duration.ofMillis(timeoutMillis));
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException(name + " subscriptions failed: " + ex, ex);
		}
	}

	/** Caller {@code caller}'s cycles, one after the other, until the deadline. */
	private static Mono<Void> chain(int caller, long deadlineNanos, IntFunction<Mono<Boolean>> cycle, Outcome outcome) {
		Mono<Boolean> timed = Mono.defer(() -> {
			long start = System.nanoTime();
			return cycle.apply(caller)
				.doOnNext((acquired) -> outcome.accept(caller, acquired, System.nanoTime() - start));
		});
		return Mono
			.defer(() -> before(deadlineNanos) ? timed.repeat(() -> before(deadlineNanos)).then() : Mono.empty());
	}

	private static boolean before(long deadlineNanos) {
		return System.nanoTime() - deadlineNanos < 0;
	}

	/** What a chain reports of each cycle; called on the chain's current thread. */
	@FunctionalInterface
	interface Outcome {

		void accept(int caller, boolean acquired, long nanos);

	}

}
