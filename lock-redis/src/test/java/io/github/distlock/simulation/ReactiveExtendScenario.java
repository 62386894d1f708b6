package io.github.distlock.simulation;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.core.ReactiveLockEngine;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.Unknown;

/**
 * Issue 39's reactive false loss as a fixed timeline, for the one defect put back that
 * the simulation cannot reach ({@link Mutant#REACTIVE_EXTEND_UNANSWERED}: the simulation
 * drives the blocking engine only). A reactive hold on an auto-renewed lease of
 * {@value #LEASE_MILLIS} ms (renewed on its own, every 500 ms) is extended to 60 s, and
 * the store leaves that one extend unanswered ({@link Unknown}, not applied); every other
 * command is answered at once. The old deadline still holds, so the next renewal must
 * come before it: the hold must stay held, with nothing reported lost, until
 * {@value #WATCH_MILLIS} ms after the extend, twice the lease. With the defect, the next
 * renewal comes 20 s later and the hold runs out at the old deadline.
 * <p>
 * Real time and the engine's own threads (the reactive engine hands its results to
 * Reactor's): the margins are a second either way.
 */
final class ReactiveExtendScenario {

	static final long LEASE_MILLIS = 1_500;

	static final long WATCH_MILLIS = 2 * LEASE_MILLIS;

	private static final Duration EXTENDED = Duration.ofSeconds(60);

	private ReactiveExtendScenario() {
	}

	/**
	 * Runs the timeline once.
	 * @return what went wrong, or {@code null} if the hold stayed held and renewed
	 */
	static String run() throws InterruptedException {
		InMemoryLockStore memory = new InMemoryLockStore();
		AtomicBoolean unanswerNext = new AtomicBoolean();
		ForwardingLockStore store = new ForwardingLockStore(memory) {

			@Override
			public ExtendReply extend(String key, String owner, long leaseMillis) {
				if (leaseMillis == EXTENDED.toMillis() && unanswerNext.compareAndSet(true, false)) {
					return new Unknown(new IllegalStateException("no reply"));
				}
				return super.extend(key, owner, leaseMillis);
			}

		};
		Queue<String> lost = new ConcurrentLinkedQueue<>();
		ReactiveLockEngine engine = new ReactiveLockEngine(store, Duration.ofMillis(LEASE_MILLIS));
		engine.setLockLostListener((event) -> lost.add(event.reason()));
		try {
			ReactiveLockHandle handle = engine.tryLock("id", Duration.ZERO, null).block(Duration.ofSeconds(10));
			if (handle == null) {
				return "the free lock was not acquired";
			}
			unanswerNext.set(true);
			long extendedAt = System.nanoTime();
			try {
				handle.extend(EXTENDED).block(Duration.ofSeconds(10));
			}
			catch (RuntimeException ex) {
				// Unanswered: the lease stays as it was (the fixed engine says so by
				// failing).
			}
			while (System.nanoTime() - extendedAt < TimeUnit.MILLISECONDS.toNanos(WATCH_MILLIS)) {
				if (!handle.isHeld() || !lost.isEmpty()) {
					long after = (System.nanoTime() - extendedAt) / 1_000_000;
					return "the reactive hold was " + (lost.isEmpty() ? "no longer held" : "reported lost: " + lost)
							+ " " + after + " ms after its unanswered extend (the store's holder then: "
							+ memory.holderOf(memory.key("id")).orElse("none") + ")";
				}
				Thread.sleep(20);
			}
			handle.release().block(Duration.ofSeconds(10));
			return null;
		}
		finally {
			engine.destroy();
		}
	}

}
