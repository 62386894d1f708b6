package io.github.distlock.testsupport;

import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each node of a {@link RedisCluster} is now, read from {@code CLUSTER NODES} of the
 * first live node that answers: the masters and the slots they serve, the replicas and
 * their masters, and the node ids (learnt once, they survive restarts). May be called
 * from any thread.
 */
final class ClusterView {

	private final RedisCluster cluster;

	private final Map<RedisServer, String> ids = new ConcurrentHashMap<>();

	ClusterView(RedisCluster cluster) {
		this.cluster = cluster;
	}

	/** The masters serving slots now, ordered by their first slot. */
	List<RedisServer> masters() {
		return entries().stream()
			.filter(entry -> entry.isMaster() && !entry.isFailing() && !entry.slots().isEmpty())
			.sorted(Comparator.comparingInt(entry -> entry.slots().nextSetBit(0)))
			.map(entry -> cluster.serverOnPort(entry.port()))
			.toList();
	}

	/** The running replicas (frozen ones included), ordered by port. */
	List<RedisServer> replicas() {
		return entries().stream()
			.filter(ClusterNodeEntry::isReplica)
			.map(entry -> cluster.serverOnPort(entry.port()))
			.filter(RedisServer::isRunning)
			.sorted(Comparator.comparingInt(RedisServer::port))
			.toList();
	}

	/** The replicas of {@code master}, frozen and failing ones included. */
	List<RedisServer> replicasOf(RedisServer master) {
		String masterId = nodeId(master);
		return entries().stream()
			.filter(entry -> entry.isReplica() && masterId.equals(entry.masterId()))
			.map(entry -> cluster.serverOnPort(entry.port()))
			.toList();
	}

	/** {@code node}, a master serving slots now. */
	RedisServer requireServingMaster(RedisServer node) {
		List<RedisServer> masters = masters();
		if (!masters.contains(cluster.requireMember(node))) {
			throw new IllegalArgumentException("node " + node.port() + " is not a master serving slots; masters are "
					+ RedisTopology.ports(masters));
		}
		return node;
	}

	/** The node id ({@code CLUSTER MYID}) of {@code node}, asked once. */
	String nodeId(RedisServer node) {
		return ids.computeIfAbsent(cluster.requireMember(node), member -> member.command("CLUSTER", "MYID"));
	}

	/**
	 * The master that serves {@code slot} now.
	 * @throws IllegalArgumentException if there is no such slot
	 * @throws RedisServerException if no master serves it
	 */
	RedisServer masterForSlot(int slot) {
		if (slot < 0 || slot >= RedisCluster.SLOTS) {
			throw new IllegalArgumentException("slot must be 0.." + (RedisCluster.SLOTS - 1) + ", was " + slot);
		}
		return entries().stream()
			.filter(entry -> entry.isMaster() && !entry.isFailing() && entry.slots().get(slot))
			.map(entry -> cluster.serverOnPort(entry.port()))
			.findFirst()
			.orElseThrow(() -> new RedisServerException("no master serves slot " + slot + "\n" + cluster.describe()));
	}

	/**
	 * The hash slot of {@code key}, as {@code CLUSTER KEYSLOT} on a live node computes
	 * it.
	 */
	int keySlot(String key) {
		return Integer.parseInt(anyLiveNode().command(RedisTopology.PROBE_TIMEOUT, "CLUSTER", "KEYSLOT", key));
	}

	RedisServer anyLiveNode() {
		return cluster.liveNodes()
			.stream()
			.findFirst()
			.orElseThrow(() -> new RedisServerException("no node of the cluster is running: " + cluster.nodes()));
	}

	/** {@code CLUSTER NODES} of the first live node that answers. */
	private List<ClusterNodeEntry> entries() {
		RuntimeException failure = null;
		for (RedisServer node : cluster.liveNodes()) {
			try {
				return ClusterNodeEntry.parse(node.command(RedisTopology.PROBE_TIMEOUT, "CLUSTER", "NODES"));
			}
			catch (RedisServerException | UncheckedIOException e) {
				failure = e;
			}
		}
		throw new RedisServerException("no node of the cluster answers CLUSTER NODES: " + cluster.nodes(), failure);
	}

}
