package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.Unknown;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An acquire the quorum did not answer ({@link Unknown}: a majority paused) is tried
 * again by the engine with the same owner token; on a paused node the retry is queued
 * behind the unanswered attempt. Nothing may then remove that token from a node behind
 * the retry's back: the store answers {@code Unknown} without a clean-up of its own (the
 * engine releases the token when it gives it up), so the holder keeps its majority.
 * <p>
 * The node timeout (300 ms) is shorter than the node clients' command timeout (1 s), as
 * the store's constructor allows: each unanswered attempt's command stays queued on the
 * paused node's connection long after the store answered, and before the fix its clean-up
 * release, sent when that command ended, ran on the node right after the retries that
 * counted it.
 */
class QuorumRetryTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(300);

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

	private static final int ROUNDS = 4;

	private final QuorumNodes nodes = new QuorumNodes(3, false, NODE_TIMEOUT, COMMAND_TIMEOUT);

	@AfterEach
	void stopNodes() {
		this.nodes.close();
	}

	@Test
	void aRetriedTokenKeepsItsMajorityAfterPausedNodesCatchUp() throws Exception {
		this.nodes.markEstablished();
		AttemptCounting counted = new AttemptCounting(this.nodes.newStore());
		LockEngine first = this.nodes.newService(counted, Duration.ofSeconds(30));
		LockEngine second = this.nodes.newService(Duration.ofSeconds(30));
		String key = new LockKeys("distlock:").lockKey("paused-majority");
		List<String> broken = new ArrayList<>();
		for (int round = 0; round < ROUNDS; round++) {
			this.nodes.server(1).pause();
			this.nodes.server(2).pause();
			int attemptsBefore = counted.attempts.get();
			CompletableFuture<Optional<LockHandle>> acquired = CompletableFuture
				.supplyAsync(() -> first.tryLock("paused-majority", Duration.ofSeconds(20), null));
			// Several attempts unanswered by the paused majority, each one's command
			// still
			// queued on the paused nodes' connections.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> counted.unknowns.get() >= 3 && counted.attempts.get() - attemptsBefore >= 4);
			this.nodes.server(1).resume();
			this.nodes.server(2).resume();
			LockHandle holder = acquired.get(20, TimeUnit.SECONDS).orElseThrow();
			String owner = stripFlag(this.nodes.server(0).command("GET", key));
			// Whatever the paused nodes still had queued has run by now, and runs within
			// the window checked here: the holder must keep a majority throughout.
			long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
			while (System.nanoTime() - until < 0) {
				int holding = nodesHolding(key, owner);
				if (holding < 2) {
					broken.add("round " + round + ": the holder is on " + holding + " of 3 nodes");
					break;
				}
				Optional<LockHandle> other;
				try {
					other = second.tryLock("paused-majority", Duration.ZERO, null);
				}
				catch (LockNotAcquiredException ex) {
					// Unanswered in the node timeout (a loaded machine): not a second
					// holder.
					continue;
				}
				if (other.isPresent()) {
					broken.add("round " + round + ": a second holder (token " + other.get().fencingToken()
							+ ") while the first (token " + holder.fencingToken() + ") holds");
					other.get().close();
					break;
				}
			}
			assertThat(holder.isHeld()).isTrue();
			holder.close();
		}
		assertThat(broken).isEmpty();
	}

	private int nodesHolding(String key, String owner) {
		int holding = 0;
		for (int i = 0; i < this.nodes.size(); i++) {
			if (owner.equals(stripFlag(this.nodes.server(i).command("GET", key)))) {
				holding++;
			}
		}
		return holding;
	}

	private static String stripFlag(String value) {
		return (value != null && value.endsWith("+")) ? value.substring(0, value.length() - 1) : value;
	}

	/** Counts the engine's acquire attempts and those the quorum did not answer. */
	private static final class AttemptCounting extends ForwardingLockStore {

		final AtomicInteger attempts = new AtomicInteger();

		final AtomicInteger unknowns = new AtomicInteger();

		AttemptCounting(QuorumLockStore delegate) {
			super(delegate);
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis) {
			this.attempts.incrementAndGet();
			AcquireReply reply = super.acquire(key, owner, leaseMillis);
			if (reply instanceof Unknown) {
				this.unknowns.incrementAndGet();
			}
			return reply;
		}

	}

}
