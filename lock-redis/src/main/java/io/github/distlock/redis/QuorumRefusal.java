package io.github.distlock.redis;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.redis.NodeCalls.Replies;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;

/**
 * What a quorum acquire that no majority granted answers, and what it leaves on the
 * nodes.
 * <p>
 * When fewer than a majority answer either way, the answer is {@link Unknown} and nothing
 * is released (the caller may send the token again; see {@link QuorumLockStore}).
 * Otherwise it is a refusal: the nodes that granted it, or may have (failed, or answered
 * after the decision), are <em>withdrawn</em>
 * ({@link io.github.distlock.store.LockStore#withdraw}: released, with no announcement).
 * A share of a refused acquisition never was the lock, and whoever its key refused on a
 * node was refused by the lock's holder too, or re-checks by itself; announcing it made
 * two waiters behind a holder whose majority left one node free wake each other for as
 * long as the holder held the lock, each taking that node and freeing it again.
 * <p>
 * When a majority holds the lock for others and this acquirer got no node, the answer is
 * {@link HeldByOther} with the time until enough of their keys expire. When it got some
 * nodes, it cannot tell racing acquirers that split the vote from a holder whose majority
 * left nodes free: it pauses a random 1–20 ms (racers fall out of step, also when the
 * caller retries at once), and answers {@link HeldByOther} with a jittered re-check delay
 * that doubles with each such answer for the key in a row (20, 40, 80 ms ... up to 1 s,
 * the engine's fallback re-check): racers get a quick second chance, a waiter behind such
 * a holder soon asks no more often than it would behind any holder. The doubling starts
 * again once the key was acquired through this store, or after two quiet seconds.
 */
final class QuorumRefusal {

	private static final long MAX_SPLIT_DELAY_MILLIS = 20;

	private static final long MAX_RECHECK_MILLIS = 1000;

	private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(2);

	/** Keys remembered at most; beyond that all are forgotten (the doubling restarts). */
	private static final int MAX_KEYS = 4096;

	private final EngineRuntime runtime;

	/**
	 * Per key: how many share-taking refusals in a row, and the runtime time of the last.
	 */
	private final Map<String, long[]> shared = new ConcurrentHashMap<>();

	QuorumRefusal(EngineRuntime runtime) {
		this.runtime = runtime;
	}

	/**
	 * The answer to an acquire of {@code owner} that fewer than a majority granted.
	 * @param replies the nodes' replies
	 * @param majority the quorum's majority
	 * @param size the number of nodes
	 */
	AcquireReply refused(Replies<AcquireReply> replies, String key, String owner, int majority, int size) {
		List<AcquireReply> answers = replies.answers();
		int granted = QuorumVote.count(answers, Acquired.class);
		int held = QuorumVote.count(answers, HeldByOther.class);
		if (granted + held < majority) {
			RuntimeException mistake = replies.mistake();
			if (mistake != null) {
				withdrawAfter(replies, key, owner);
				throw mistake;
			}
			// No clean-up here: the caller may send this owner token again (the engine
			// does), and on a slow node that retry can be queued ahead of a release sent
			// now, which would then remove the retry's write behind its back. The caller
			// releases the token when it gives it up.
			return new Unknown(replies.noMajority("Could not acquire lock key '" + LogSafe.text(key) + "': answered",
					majority, (reply) -> reply instanceof Acquired || reply instanceof HeldByOther));
		}
		if (held < size) {
			// The answer is a refusal, after which no caller sends this token again.
			withdrawAfter(replies, key, owner);
		}
		if (granted > 0) {
			this.runtime.park(this, TimeUnit.MILLISECONDS.toNanos(splitDelayMillis()));
			return new HeldByOther(recheckMillis(key));
		}
		// A majority holds it for others: free once enough of their keys expired that
		// the rest are no majority.
		int mustExpire = held - (size - majority);
		long[] leases = answers.stream()
			.filter(HeldByOther.class::isInstance)
			.mapToLong((reply) -> ((HeldByOther) reply).remainingLeaseMillis())
			.sorted()
			.toArray();
		return new HeldByOther(QuorumLockStore.holderLease(leases[mustExpire - 1]));
	}

	/** The key was acquired: the next share-taking refusal re-checks soon again. */
	void acquired(String key) {
		this.shared.remove(key);
	}

	/** A random 1–20 ms. */
	long splitDelayMillis() {
		return 1 + this.runtime.jitter(MAX_SPLIT_DELAY_MILLIS - 1);
	}

	private long recheckMillis(String key) {
		if (this.shared.size() > MAX_KEYS) {
			this.shared.clear();
		}
		long now = this.runtime.nanoTime();
		long[] inARow = this.shared.compute(key, (k, last) -> {
			long count = (last == null || now - last[1] > QUIET_NANOS) ? 1 : last[0] + 1;
			return new long[] { count, now };
		});
		long bound = Math.min(MAX_RECHECK_MILLIS, MAX_SPLIT_DELAY_MILLIS << Math.min(inARow[0] - 1, 10));
		return bound / 2 + this.runtime.jitter(bound / 2);
	}

	/**
	 * Owner-checked withdrawal on every node, each right after the node's command of
	 * {@code replies} ended, so it never overtakes it; not waited for.
	 */
	private static void withdrawAfter(Replies<?> replies, String key, String owner) {
		replies.afterEach((node) -> node.store().withdraw(key, owner));
	}

}
