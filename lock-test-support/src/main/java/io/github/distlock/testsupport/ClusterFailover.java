package io.github.distlock.testsupport;

import java.time.Duration;

/**
 * How a replica of a {@link RedisCluster} takes over from its master: asked to with
 * {@code CLUSTER FAILOVER}, or promoted by the cluster after its master died.
 */
final class ClusterFailover {

	private static final Duration FAILOVER_RETRY_INTERVAL = Duration.ofSeconds(10);

	private ClusterFailover() {
	}

	/**
	 * Sends {@code CLUSTER FAILOVER} to {@code replica} and returns it once the old
	 * master replicates from it and the cluster is healthy.
	 */
	static RedisServer coordinated(RedisCluster cluster, RedisServer master, RedisServer replica) {
		long[] lastRequest = { System.nanoTime() };
		replica.command("CLUSTER", "FAILOVER");
		cluster.await("replica " + replica.port() + " promoted by CLUSTER FAILOVER and master " + master.port()
				+ " replicating from it", () -> {
					if (RedisTopology.role(replica).startsWith("slave")
							&& RedisTopology.elapsed(lastRequest[0]).compareTo(FAILOVER_RETRY_INTERVAL) > 0) {
						// A manual failover that timed out (5 s) on a loaded machine is
						// abandoned by Redis: ask again.
						lastRequest[0] = System.nanoTime();
						replica.command("CLUSTER", "FAILOVER");
					}
					return RedisTopology.role(replica).equals("master")
							&& RedisTopology.role(master).equals("slave " + replica.port());
				});
		cluster.awaitHealthy();
		return replica;
	}

	/** Returns once the cluster has promoted {@code replica} and is healthy. */
	static void awaitPromotion(RedisCluster cluster, RedisServer replica, String when) {
		cluster.await("replica " + replica.port() + " promoted to master " + when,
				() -> RedisTopology.role(replica).equals("master"));
		cluster.awaitHealthy();
	}

	/**
	 * @throws IllegalStateException if {@code replica} is paused: it could not take over
	 * from {@code master}
	 */
	static RedisServer requireUnpaused(RedisServer replica, RedisServer master) {
		if (replica.isPaused()) {
			throw new IllegalStateException("the replica " + replica.port() + " of master " + master.port()
					+ " is paused and could not take over; resume it first (or use loseUnreplicatedWrites)");
		}
		return replica;
	}

}
