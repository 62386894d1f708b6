package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;
import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The waiter's state machine, without a store: which transitions it allows, and that
 * signals and grants are never lost between the check and the park.
 */
class WaiterTests {

	private static final Duration BOUND = Duration.ofSeconds(10);

	private static final long LONG_PARK = TimeUnit.SECONDS.toNanos(60);

	@Test
	void aNewWaiterWaits() {
		Waiter waiter = new Waiter(Thread.currentThread(), 0);
		assertThat(waiter.state()).isEqualTo(Waiter.State.WAITING);
		assertThat(waiter.granted()).isNull();
	}

	@Test
	void anAttemptEndsAcquiredOrBackToWaiting() {
		Waiter waiter = new Waiter(Thread.currentThread(), 0);
		assertThat(waiter.transition(Waiter.State.WAITING, Waiter.State.ATTEMPTING)).isTrue();
		// While attempting in the store it cannot be picked for a hand-over or cancelled.
		assertThat(waiter.transition(Waiter.State.WAITING, Waiter.State.GRANTING)).isFalse();
		assertThat(waiter.transition(Waiter.State.WAITING, Waiter.State.CANCELLED)).isFalse();
		assertThat(waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.WAITING)).isTrue();
		assertThat(waiter.transition(Waiter.State.WAITING, Waiter.State.ATTEMPTING)).isTrue();
		assertThat(waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.ACQUIRED)).isTrue();
		assertThat(waiter.state()).isEqualTo(Waiter.State.ACQUIRED);
	}

	@Test
	void everyTransitionFromAnotherStateThanTheCurrentOneFails() {
		for (Waiter.State current : Waiter.State.values()) {
			for (Waiter.State from : EnumSet.complementOf(EnumSet.of(current))) {
				for (Waiter.State to : Waiter.State.values()) {
					Waiter waiter = inState(current);
					assertThat(waiter.transition(from, to)).as("%s -> %s while %s", from, to, current).isFalse();
					assertThat(waiter.state()).isEqualTo(current);
				}
			}
		}
	}

	@Test
	void aSignalBeforeTheParkIsNotLostAndIsConsumedByIt() {
		Waiter waiter = new Waiter(Thread.currentThread(), 0);
		waiter.signal();
		// Returns at once: the signal came between the waiter's check and its park.
		assertTimeoutPreemptively(BOUND, () -> parkAsOwner(waiter));
		assertThat(waiter.state()).isEqualTo(Waiter.State.WAITING);
	}

	@Test
	void aGrantWakesTheParkedWaiterWithTheHold() throws Exception {
		AtomicReference<Waiter> waiterOfThread = new AtomicReference<>();
		AtomicReference<Waiter.State> seenAfterPark = new AtomicReference<>();
		Thread thread = new Thread(() -> {
			Waiter waiter = waiterOfThread.get();
			while (waiter.state() != Waiter.State.GRANTED) {
				waiter.park(LONG_PARK);
			}
			seenAfterPark.set(waiter.state());
		});
		Waiter waiter = new Waiter(thread, TimeUnit.SECONDS.toNanos(5));
		waiterOfThread.set(waiter);
		thread.start();
		await().atMost(BOUND).until(() -> LockSupport.getBlocker(thread) == waiter);
		assertThat(waiter.transition(Waiter.State.WAITING, Waiter.State.GRANTING)).isTrue();
		HeldLock held = new HeldLock(new LockEntry("key", "id"), "owner", 7, thread, waiter.fixedLeaseNanos, false,
				System.nanoTime());
		waiter.grant(held);
		thread.join(BOUND.toMillis());
		assertThat(thread.isAlive()).isFalse();
		assertThat(seenAfterPark.get()).isEqualTo(Waiter.State.GRANTED);
		assertThat(waiter.granted()).isSameAs(held);
	}

	@Test
	void aGrantedWaiterDoesNotParkAgain() {
		Waiter waiter = inState(Waiter.State.GRANTING);
		waiter.grant(new HeldLock(new LockEntry("key", "id"), "owner", 1, Thread.currentThread(),
				TimeUnit.SECONDS.toNanos(5), false, System.nanoTime()));
		assertTimeoutPreemptively(BOUND, () -> parkAsOwner(waiter));
		assertThat(waiter.state()).isEqualTo(Waiter.State.GRANTED);
	}

	@Test
	void anUnparkWithoutASignalDoesNotEndThePark() {
		// Three stray permits (replies to calls the waiter returned from), then the time
		// passes: the park goes on through them and ends at its time, not at the first.
		StrayPermits runtime = new StrayPermits(3);
		Waiter waiter = new Waiter(Thread.currentThread(), 0, runtime);
		waiter.park(TimeUnit.MILLISECONDS.toNanos(100));
		assertThat(runtime.parks).isEqualTo(4);
		assertThat(runtime.now).isEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
	}

	@Test
	void anInterruptEndsThePark() {
		StrayPermits runtime = new StrayPermits(Integer.MAX_VALUE);
		Waiter waiter = new Waiter(Thread.currentThread(), 0, runtime);
		Thread.currentThread().interrupt();
		try {
			waiter.park(LONG_PARK);
			// One park, returning at once as the JVM's does for an interrupted thread,
			// and no more.
			assertThat(runtime.parks).isOne();
		}
		finally {
			assertThat(Thread.interrupted()).isTrue();
		}
	}

	/**
	 * Parks for a minute: returns at once only if a signal or grant was kept for the
	 * park.
	 */
	private static void parkAsOwner(Waiter waiter) {
		waiter.park(LONG_PARK);
	}

	/** A waiter in {@code state}, reached by the transitions the engine makes. */
	private static Waiter inState(Waiter.State state) {
		Waiter waiter = new Waiter(Thread.currentThread(), 0);
		switch (state) {
			case WAITING -> {
			}
			case ATTEMPTING -> waiter.transition(Waiter.State.WAITING, Waiter.State.ATTEMPTING);
			case ACQUIRED -> {
				waiter.transition(Waiter.State.WAITING, Waiter.State.ATTEMPTING);
				waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.ACQUIRED);
			}
			case GRANTING -> waiter.transition(Waiter.State.WAITING, Waiter.State.GRANTING);
			case GRANTED -> {
				waiter.transition(Waiter.State.WAITING, Waiter.State.GRANTING);
				waiter.grant(new HeldLock(new LockEntry("key", "id"), "owner", 1, Thread.currentThread(),
						TimeUnit.SECONDS.toNanos(5), false, System.nanoTime()));
			}
			case CANCELLED -> waiter.transition(Waiter.State.WAITING, Waiter.State.CANCELLED);
		}
		assertThat(waiter.state()).isEqualTo(state);
		return waiter;
	}

	/**
	 * A runtime whose first parks return at once, as after a stray unpark, and whose
	 * later parks let the time they asked for pass.
	 */
	private static final class StrayPermits implements EngineRuntime {

		private final int stray;

		int parks;

		long now;

		StrayPermits(int stray) {
			this.stray = stray;
		}

		@Override
		public long nanoTime() {
			return this.now;
		}

		@Override
		public void park(Object blocker, long nanos) {
			this.parks++;
			if (this.parks > this.stray) {
				this.now += nanos;
			}
		}

		@Override
		public void unpark(Thread thread) {
			throw new UnsupportedOperationException("not used by a parking waiter");
		}

		@Override
		public TaskPool newTaskPool(String name, int threads, boolean endWhenIdle) {
			throw new UnsupportedOperationException("not used by a parking waiter");
		}

		@Override
		public long jitter(long bound) {
			return 0;
		}

		@Override
		public String newOwnerToken() {
			return "owner";
		}

	}

}
