package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.redis.QuorumLockStore.Member;
import io.github.distlock.redis.QuorumLockStore.Node;
import org.jspecify.annotations.Nullable;

/**
 * The members of a {@link QuorumLockStore} on Redis nodes: on each, the single-Redis
 * store ({@link RedisLockStore}, issuing the fencing token of every acquisition: the
 * quorum's fence records the largest of them) and its fencing records
 * ({@link RedisQuorumFenceRecords}).
 */
final class RedisQuorumMembers {

	private RedisQuorumMembers() {
	}

	/**
	 * @return the members, or {@code null} for {@code null} nodes (the store names that)
	 */
	static @Nullable List<Member> of(@Nullable List<Node> nodes, String keyPrefix, Duration fencingRetention) {
		if (nodes == null) {
			return null;
		}
		List<Member> members = new ArrayList<>();
		for (Node node : nodes) {
			members.add(new Member(node.name(), RedisLockStore.quorumNode(node.redis(), keyPrefix, fencingRetention),
					new RedisQuorumFenceRecords(node.redis(), keyPrefix, fencingRetention.toMillis())));
		}
		return members;
	}

}
