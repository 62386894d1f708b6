package io.github.distlock.testsupport;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The conditions {@link RedisCluster} waits for, each one poll over the live nodes
 * (running and not paused): nodes dead or frozen on purpose are left out; and what the
 * nodes report, for the message when a wait times out.
 */
final class ClusterHealth {

	private final RedisCluster cluster;

	ClusterHealth(RedisCluster cluster) {
		this.cluster = cluster;
	}

	/**
	 * Every live node reports {@code cluster_state:ok} and has the same view of the live
	 * nodes (roles, masters, slots), none of which it considers failing, and every live
	 * replica's link to its master is up.
	 */
	boolean isHealthy() {
		List<RedisServer> live = cluster.liveNodes();
		Set<Integer> livePorts = live.stream().map(RedisServer::port).collect(Collectors.toSet());
		String agreedView = null;
		for (RedisServer node : live) {
			String info = node.command(RedisTopology.PROBE_TIMEOUT, "CLUSTER", "INFO");
			if (!"ok".equals(RedisInfo.field(info, "cluster_state"))) {
				return false;
			}
			String view = liveView(node, livePorts);
			if (view == null || (agreedView != null && !agreedView.equals(view))) {
				return false;
			}
			agreedView = view;
			if (RedisTopology.role(node).startsWith("slave") && !"up".equals(RedisInfo
				.field(node.command(RedisTopology.PROBE_TIMEOUT, "INFO", "replication"), "master_link_status"))) {
				return false;
			}
		}
		return agreedView != null;
	}

	/** {@code node} lists every node of the cluster, each by its real id. */
	boolean knowsEveryNode(RedisServer node) {
		List<ClusterNodeEntry> entries = ClusterNodeEntry
			.parse(node.command(RedisTopology.PROBE_TIMEOUT, "CLUSTER", "NODES"));
		return entries.size() == cluster.servers().size() && entries.stream().noneMatch(ClusterNodeEntry::isUnknown);
	}

	/**
	 * Every live node sees {@code owner} serving {@code slot}, with no migration marked.
	 */
	boolean slotServedEverywhereBy(int slot, RedisServer owner) {
		for (RedisServer node : cluster.liveNodes()) {
			String nodes = node.command(RedisTopology.PROBE_TIMEOUT, "CLUSTER", "NODES");
			if (nodes.contains("[" + slot + "-")) {
				return false; // still MIGRATING or IMPORTING there
			}
			boolean served = ClusterNodeEntry.parse(nodes)
				.stream()
				.anyMatch(entry -> entry.port() == owner.port() && entry.isMaster() && entry.slots().get(slot));
			if (!served) {
				return false;
			}
		}
		return true;
	}

	/**
	 * What each node is and sees, for failure messages: its role and cluster state, and
	 * {@code CLUSTER NODES} of the first live node.
	 */
	String describe() {
		StringBuilder text = new StringBuilder("cluster nodes (directory ").append(cluster.directory()).append("):\n");
		for (RedisServer server : cluster.servers()) {
			text.append("  ").append(server.port()).append(' ');
			if (!server.isRunning() || server.isPaused()) {
				text.append(server.isRunning() ? "(paused)\n" : "(not running)\n");
				continue;
			}
			try {
				text.append(RedisTopology.role(server))
					.append(", ")
					.append(server.command(RedisTopology.PROBE_TIMEOUT, "CLUSTER", "INFO")
						.lines()
						.findFirst()
						.orElse(""))
					.append('\n');
			}
			catch (RuntimeException e) {
				text.append("(unreachable: ").append(e.getMessage()).append(")\n");
			}
		}
		try {
			RedisServer node = cluster.anyLiveNode();
			text.append("CLUSTER NODES on ").append(node.port()).append(":\n");
			text.append(node.command(RedisTopology.PROBE_TIMEOUT, "CLUSTER", "NODES"));
		}
		catch (RuntimeException e) {
			text.append("(no CLUSTER NODES: ").append(e.getMessage()).append(")");
		}
		return text.toString();
	}

	/**
	 * How {@code node} sees the live nodes, one line each ({@code port master slots} or
	 * {@code port replica-of port}), or {@code null} if it misses one, does not know one
	 * yet, considers one failing or has a live replica of a master that is not live.
	 */
	private String liveView(RedisServer node, Set<Integer> livePorts) {
		List<ClusterNodeEntry> entries = ClusterNodeEntry
			.parse(node.command(RedisTopology.PROBE_TIMEOUT, "CLUSTER", "NODES"));
		Map<String, Integer> portsById = entries.stream()
			.collect(Collectors.toMap(ClusterNodeEntry::id, ClusterNodeEntry::port));
		Map<Integer, String> view = new TreeMap<>();
		for (ClusterNodeEntry entry : entries) {
			if (!livePorts.contains(entry.port())) {
				continue;
			}
			if (entry.isFailing() || entry.isUnknown()) {
				return null;
			}
			if (entry.isReplica()) {
				Integer masterPort = portsById.get(entry.masterId());
				if (masterPort == null || !livePorts.contains(masterPort)) {
					return null;
				}
				view.put(entry.port(), "replica-of " + masterPort);
			}
			else {
				view.put(entry.port(), "master " + entry.slots());
			}
		}
		return view.size() == livePorts.size() ? view.toString() : null;
	}

}
