package io.github.distlock.redis;

import java.util.concurrent.TimeUnit;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.redis.NodeCalls.Replies;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.Unknown;

/**
 * The end of a quorum acquisition or hand-over that a majority of nodes granted: the
 * fencing token is recorded on a majority ({@link QuorumFence}), and the lock is the new
 * owner's only when that is done while its lease still runs; otherwise it is undone on
 * every node.
 */
final class QuorumGrant {

	private final QuorumFence fence;

	private final EngineRuntime runtime;

	QuorumGrant(QuorumFence fence, EngineRuntime runtime) {
		this.fence = fence;
		this.runtime = runtime;
	}

	/**
	 * {@link Acquired} with a token above every earlier one when it was recorded within
	 * the lease; {@code late} when the lease ran out first (then the lock is released on
	 * every node, owner-checked, right after each node's command of {@code replies});
	 * {@link Unknown} with the cause when no majority recorded it. Nothing is released
	 * for {@code Unknown}: the caller may send the same owner token again, and a release
	 * queued behind this command on a slow node could overtake nothing but would remove
	 * that retry's write; the caller releases the token when it gives it up.
	 * @param replies the grants, of a majority of nodes
	 * @param owner the owner the nodes granted it to
	 * @param sentAt the runtime's {@code nanoTime()} before the command was sent
	 * @param waitNanos how long to wait for the nodes
	 */
	<R> R complete(Replies<? extends R> replies, String key, String owner, long sentAt, long leaseMillis,
			long waitNanos, R late) {
		long proposal = replies.answers()
			.stream()
			.filter(Acquired.class::isInstance)
			.mapToLong((reply) -> ((Acquired) reply).fencingToken())
			.max()
			.orElseThrow();
		RuntimeException[] failure = new RuntimeException[1];
		Long token = this.fence.record(key, proposal, waitNanos, failure);
		if (token != null && this.runtime.nanoTime() - sentAt < TimeUnit.MILLISECONDS.toNanos(leaseMillis)) {
			@SuppressWarnings("unchecked")
			R acquired = (R) new Acquired(token);
			return acquired;
		}
		if (token != null) {
			releaseAfter(replies, key, owner);
			return late;
		}
		@SuppressWarnings("unchecked")
		R unknown = (R) new Unknown(failure[0]);
		return unknown;
	}

	/**
	 * Owner-checked release on every node, each right after the node's command of
	 * {@code replies} ended, so it never overtakes it; not waited for.
	 */
	static void releaseAfter(Replies<?> replies, String key, String owner) {
		replies.afterEach((node) -> node.store().release(key, owner));
	}

}
