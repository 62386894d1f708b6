package io.github.distlock.simulation;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the store holds, read off the nodes themselves: the owner a lock is held for on a
 * single node, or on a majority of a quorum's nodes (a node that is down keeps its data,
 * a node restarted empty forgot it).
 */
final class Truth {

	private final List<Node> nodes;

	Truth(List<Node> nodes) {
		this.nodes = nodes;
	}

	/**
	 * The owners holding {@code lockId} now: its exclusive holder, or the owners of its
	 * shared holds (on one node; a quorum has no shared holds); empty when free.
	 */
	Set<String> holders(String lockId) {
		String holder = holder(lockId);
		if (holder != null) {
			return Set.of(holder);
		}
		return (this.nodes.size() == 1) ? this.nodes.get(0).store().sharedHoldersOf(lockId) : Set.of();
	}

	/** The exclusive owner the lock of {@code lockId} is held for, or {@code null}. */
	String holder(String lockId) {
		if (this.nodes.size() == 1) {
			return this.nodes.get(0).store().holderOf(lockId).orElse(null);
		}
		Map<String, Integer> counts = new HashMap<>();
		for (Node node : this.nodes) {
			node.store().holderOf(lockId).ifPresent((owner) -> counts.merge(owner, 1, Integer::sum));
		}
		int majority = this.nodes.size() / 2 + 1;
		for (Map.Entry<String, Integer> entry : counts.entrySet()) {
			if (entry.getValue() >= majority) {
				return entry.getKey();
			}
		}
		return null;
	}

}
