package io.github.distlock.testsupport;

import java.util.List;

/**
 * When a {@link RedisSentinelGroup} is healthy, as its Sentinels and data nodes report it
 * (nodes dead or paused on purpose left out), and what they report, for the message when
 * a wait times out.
 */
final class SentinelGroupHealth {

	private final RedisSentinelGroup group;

	SentinelGroupHealth(RedisSentinelGroup group) {
		this.group = group;
	}

	/**
	 * Every Sentinel reports the same running master and sees it up with no failover
	 * going on, knows the other Sentinels and reaches every running, unpaused replica,
	 * and each of those replicas reports its link to that master up.
	 */
	boolean isHealthy() {
		List<Integer> reported = group.reportedMasterPorts();
		if (reported.size() != 1) {
			return false;
		}
		RedisServer master = group.serverOnPort(reported.get(0));
		if (!master.isRunning() || master.isPaused() || !RedisTopology.role(master).equals("master")) {
			return false;
		}
		List<RedisServer> liveReplicas = group.servers()
			.stream()
			.filter(server -> server.isRunning() && !server.isPaused() && !server.equals(master))
			.toList();
		for (RedisServer replica : liveReplicas) {
			if (!RedisTopology.role(replica).equals("slave " + master.port()) || !"up".equals(RedisInfo
				.field(replica.command(RedisTopology.PROBE_TIMEOUT, "INFO", "replication"), "master_link_status"))) {
				return false;
			}
		}
		for (RedisServer sentinel : group.sentinels()) {
			SentinelView view = SentinelView.read(sentinel, group.masterName());
			if (view.masterPort() != master.port() || !view.masterUp()
					|| view.otherSentinels() != group.sentinels().size() - 1
					|| !liveReplicas.stream().allMatch(replica -> view.reachesReplica(replica.port()))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Each data node's role and each Sentinel's report, for failure messages.
	 * @param lastFailoverRefusal why Sentinel last refused {@code SENTINEL FAILOVER}, or
	 * {@code null}
	 */
	String describe(String lastFailoverRefusal) {
		StringBuilder text = new StringBuilder();
		if (lastFailoverRefusal != null) {
			text.append("last refusal of SENTINEL FAILOVER: ").append(lastFailoverRefusal).append('\n');
		}
		text.append("data nodes:\n");
		for (RedisServer server : group.servers()) {
			text.append("  ").append(server.port()).append(' ');
			if (!server.isRunning() || server.isPaused()) {
				text.append(server.isRunning() ? "(paused)\n" : "(not running)\n");
				continue;
			}
			try {
				text.append(RedisTopology.role(server)).append('\n');
			}
			catch (RuntimeException e) {
				text.append("(unreachable: ").append(e.getMessage()).append(")\n");
			}
		}
		text.append("sentinels:\n");
		for (RedisServer sentinel : group.sentinels()) {
			text.append("  ").append(sentinel.port()).append(' ');
			try {
				SentinelView view = SentinelView.read(sentinel, group.masterName());
				text.append("master ").append(view.masterPort()).append(' ').append(view.master().get("flags"));
				text.append(", other sentinels ").append(view.otherSentinels());
				view.replicas()
					.forEach((port, fields) -> text.append(", replica ")
						.append(port)
						.append(' ')
						.append(fields.get("flags"))
						.append(" link ")
						.append(fields.get("master-link-status"))
						.append(" of ")
						.append(fields.get("master-port")));
				text.append('\n');
			}
			catch (RuntimeException e) {
				text.append("(unreachable: ").append(e.getMessage()).append(")\n");
			}
		}
		return text.toString();
	}

}
