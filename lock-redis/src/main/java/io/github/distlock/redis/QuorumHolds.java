package io.github.distlock.redis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * Who holds a lock across the nodes of a quorum, for
 * {@link QuorumLockStore#remainingLeaseMillis}: held while a majority of nodes have a key
 * of <em>one</em> owner. Keys of different owners on a majority of nodes are nobody's
 * lock: right after a release, which answers once a majority freed the lock, its last
 * node may still have the key, beside the key of an acquirer refused a moment before on a
 * node it is still freeing. Counting keys alone read that as held (found by
 * {@code QuorumLockServiceContractTests}, once in about 450 runs under load).
 */
final class QuorumHolds {

	private QuorumHolds() {
	}

	/**
	 * The lock key on one node.
	 *
	 * @param owner its owner token without the contended flag; null when the node's store
	 * cannot tell (every such key then counts as one owner's)
	 * @param ttl its remaining ms: -1 when absent, {@code Long.MAX_VALUE} without expiry
	 */
	record NodeHold(@Nullable String owner, long ttl) {

		/**
		 * The owner and {@code PTTL} of a Redis node's key, read together; only the
		 * remaining lease of another store's.
		 */
		static NodeHold read(LockStore store, String key) {
			return (store instanceof RedisLockStore redis) ? redis.hold(key)
					: new NodeHold(null, store.remainingLeaseMillis(key));
		}

	}

	/**
	 * How long one owner still holds keys on a majority of nodes: the {@code majority}-th
	 * longest remaining time among its keys; -1 when no owner has a majority.
	 */
	static long remaining(List<NodeHold> holds, int majority) {
		Map<String, List<Long>> byOwner = new HashMap<>();
		for (NodeHold hold : holds) {
			if (hold.ttl() >= 0) {
				String owner = (hold.owner() != null) ? hold.owner() : "";
				byOwner.computeIfAbsent(owner, (any) -> new ArrayList<>()).add(hold.ttl());
			}
		}
		long remaining = -1;
		for (List<Long> ttls : byOwner.values()) {
			if (ttls.size() >= majority) {
				ttls.sort(Comparator.reverseOrder());
				remaining = Math.max(remaining, ttls.get(majority - 1));
			}
		}
		return remaining;
	}

}
