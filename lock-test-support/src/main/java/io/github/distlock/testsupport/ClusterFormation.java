package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the nodes of a {@link RedisCluster} and forms the cluster the way
 * {@code redis-cli --cluster create} does: a distinct config epoch per node, the slots
 * split evenly over the masters ({@code ADDSLOTSRANGE}), every node met
 * ({@code CLUSTER MEET}), one replica per master ({@code CLUSTER REPLICATE}), then a wait
 * until the cluster is healthy.
 */
final class ClusterFormation {

	static final int MASTERS = 3;

	/** Attempts per node; each picks a new bus port, in case another process took it. */
	private static final int START_ATTEMPTS = 3;

	private final RedisCluster cluster;

	private final Duration nodeTimeout;

	private final NodeArgs nodeArgs;

	private final List<Integer> busPorts = new ArrayList<>();

	private ClusterFormation(RedisCluster cluster, Duration nodeTimeout, NodeArgs nodeArgs) {
		this.cluster = cluster;
		this.nodeTimeout = nodeTimeout;
		this.nodeArgs = nodeArgs;
	}

	/**
	 * Starts the six nodes, forms the cluster and returns it once it is healthy, printing
	 * how long that took; if anything fails, closes what was started.
	 */
	static RedisCluster start(Duration nodeTimeout, NodeArgs nodeArgs) {
		long started = System.nanoTime();
		RedisCluster cluster = new RedisCluster(TopologyResources.create("distlock-redis-cluster-"));
		cluster.startOrClose(() -> {
			ClusterFormation formation = new ClusterFormation(cluster, nodeTimeout, nodeArgs);
			formation.startNodes();
			formation.form();
		});
		System.out.println("[redis-cluster] " + MASTERS + " masters + " + MASTERS + " replicas ready in "
				+ RedisTopology.elapsed(started).toMillis() + " ms: " + cluster.nodes());
		return cluster;
	}

	/** Starts the masters, then their replicas, each added to the cluster as started. */
	private void startNodes() {
		for (int index = 0; index < 2 * MASTERS; index++) {
			cluster.addNode(startNode(index));
		}
	}

	private void form() {
		List<RedisServer> nodes = cluster.servers();
		for (int index = 0; index < nodes.size(); index++) {
			RedisServer node = nodes.get(index);
			cluster.nodeId(node); // remembered now, while every node is up to tell
			node.command("CLUSTER", "SET-CONFIG-EPOCH", Integer.toString(index + 1));
		}
		for (int master = 0; master < MASTERS; master++) {
			nodes.get(master)
				.command("CLUSTER", "ADDSLOTSRANGE", Integer.toString(master * RedisCluster.SLOTS / MASTERS),
						Integer.toString((master + 1) * RedisCluster.SLOTS / MASTERS - 1));
		}
		RedisServer first = nodes.get(0);
		for (int index = 1; index < nodes.size(); index++) {
			RedisServer other = nodes.get(index);
			first.command("CLUSTER", "MEET", other.host(), Integer.toString(other.port()),
					Integer.toString(busPorts.get(index)));
		}
		ClusterHealth health = new ClusterHealth(cluster);
		cluster.await("every node knows all " + nodes.size() + " nodes",
				() -> nodes.stream().allMatch(health::knowsEveryNode));
		for (int master = 0; master < MASTERS; master++) {
			nodes.get(MASTERS + master).command("CLUSTER", "REPLICATE", cluster.nodeId(nodes.get(master)));
		}
		cluster.awaitHealthy();
	}

	private RedisServer startNode(int index) {
		Path nodesFile = cluster.resources().resolve("nodes-" + index + ".conf");
		RedisServerException failure = null;
		for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
			int busPort = RedisProcess.freeLoopbackPort();
			try {
				// A node that could not bind its bus port may have written an identity.
				Files.deleteIfExists(nodesFile);
				RedisServer node = configure(RedisServer.builder(), nodesFile, busPort).start();
				busPorts.add(busPort);
				return node;
			}
			catch (RedisServerException e) {
				// Most likely the bus port was taken between choosing and binding it.
				if (failure == null) {
					failure = e;
				}
				else {
					failure.addSuppressed(e);
				}
			}
			catch (IOException e) {
				throw new UncheckedIOException("Could not delete " + nodesFile, e);
			}
		}
		throw failure;
	}

	private RedisServer.Builder configure(RedisServer.Builder node, Path nodesFile, int busPort) {
		node.arg("cluster-enabled", "yes")
			.arg("cluster-config-file", nodesFile.toString())
			.arg("cluster-port", Integer.toString(busPort))
			.arg("cluster-node-timeout", Long.toString(nodeTimeout.toMillis()))
			.arg("cluster-replica-validity-factor", "0")
			.arg("cluster-allow-replica-migration", "no");
		return nodeArgs.applyTo(node);
	}

}
