package io.github.distlock.testsupport;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Polls a condition until it holds or a deadline passes, for the topologies' waits
 * (cluster state, roles, replication links, what Sentinel reports). A condition that
 * throws because a node is unreachable or answers with an error counts as not holding
 * yet; the last such failure is kept for the message.
 */
final class BoundedWait {

	private static final Duration POLL_INTERVAL = Duration.ofMillis(25);

	private BoundedWait() {
	}

	/**
	 * Returns once {@code condition} holds.
	 * @param what what is awaited, for the message, e.g. "cluster_state:ok on every node"
	 * @param state what the topology looks like, rendered only on timeout
	 * @throws RedisServerException if it does not hold within {@code timeout}, naming
	 * {@code what}, the last failure and the state
	 */
	static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
		long deadline = System.nanoTime() + timeout.toNanos();
		RuntimeException lastFailure = null;
		while (true) {
			try {
				if (condition.getAsBoolean()) {
					return;
				}
			}
			catch (RedisServerException | UncheckedIOException e) {
				lastFailure = e;
			}
			if (System.nanoTime() - deadline > 0) {
				RedisServerException timedOut = new RedisServerException("Not reached within " + timeout.toMillis()
						+ " ms: " + what + (lastFailure != null ? "; last failure: " + lastFailure.getMessage() : "")
						+ "\n" + describe(state));
				if (lastFailure != null) {
					timedOut.addSuppressed(lastFailure);
				}
				throw timedOut;
			}
			sleep(POLL_INTERVAL);
		}
	}

	private static String describe(Supplier<String> state) {
		try {
			return state.get();
		}
		catch (RuntimeException e) {
			return "(could not describe the topology: " + e + ")";
		}
	}

	static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new RedisServerException("Interrupted while waiting for a Redis topology", e);
		}
	}

}
