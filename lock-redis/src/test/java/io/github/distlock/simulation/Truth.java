package io.github.distlock.simulation;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

	/** The owner the lock of {@code lockId} is held for, or {@code null}. */
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
