package io.github.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;

import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisServer;

/**
 * The running {@code redis-server} processes of one {@link Topology}, started by the
 * harness on free loopback ports with {@code maxmemory-policy noeviction}: what the
 * implementations connect to, and the nodes whose {@code INFO commandstats} and
 * {@code INFO cpu} the costs are summed over.
 */
abstract sealed class RedisNodes implements AutoCloseable {

	static RedisNodes startSingle() {
		return new Single(RedisServer.builder().arg("maxmemory-policy", "noeviction").start());
	}

	static RedisNodes startCluster() {
		return new Cluster(RedisCluster.builder().arg("maxmemory-policy", "noeviction").start());
	}

	static RedisNodes startQuorum() {
		List<RedisServer> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < Quorum.NODES; i++) {
				nodes.add(RedisServer.builder().arg("maxmemory-policy", "noeviction").start());
			}
		}
		catch (RuntimeException e) {
			nodes.forEach(RedisServer::close);
			throw e;
		}
		return new Quorum(nodes);
	}

	/**
	 * The nodes the clients send their commands to, whose command counts and CPU are
	 * added up: the server, the cluster's masters (its replicas only replay the masters'
	 * writes), or all quorum nodes.
	 */
	abstract List<RedisServer> meteredNodes();

	/** The server single-node clients use; on the quorum the first node. */
	RedisServer server() {
		throw new IllegalStateException(getClass().getSimpleName() + " topology has no single server");
	}

	/** The cluster. */
	RedisCluster cluster() {
		throw new IllegalStateException(getClass().getSimpleName() + " topology is not a Redis Cluster");
	}

	/** The independent masters of the quorum. */
	List<RedisServer> quorumNodes() {
		throw new IllegalStateException(getClass().getSimpleName() + " topology has no quorum nodes");
	}

	/** Empties every node, between scenarios. */
	abstract void flushAll();

	/** What runs, for the results: the Redis version, how many nodes, where. */
	abstract String describe();

	@Override
	public abstract void close();

	/** One {@code redis-server}. */
	static final class Single extends RedisNodes {

		private final RedisServer server;

		Single(RedisServer server) {
			this.server = server;
		}

		@Override
		List<RedisServer> meteredNodes() {
			return List.of(server);
		}

		@Override
		RedisServer server() {
			return server;
		}

		@Override
		void flushAll() {
			server.flushAll();
		}

		@Override
		String describe() {
			return "redis-server " + version(server) + " on " + server.host() + " (loopback), started by the harness";
		}

		@Override
		public void close() {
			server.close();
		}

	}

	/** A Redis Cluster of 3 masters and 3 replicas. */
	static final class Cluster extends RedisNodes {

		private final RedisCluster cluster;

		private final List<RedisServer> masters;

		Cluster(RedisCluster cluster) {
			this.cluster = cluster;
			this.masters = cluster.masters();
		}

		@Override
		List<RedisServer> meteredNodes() {
			return masters;
		}

		@Override
		RedisCluster cluster() {
			return cluster;
		}

		@Override
		void flushAll() {
			cluster.flushAll();
		}

		@Override
		String describe() {
			return "Redis Cluster of 3 masters + 3 replicas, redis-server " + version(masters.get(0))
					+ " on loopback, started by the harness (lock-test-support RedisCluster); commands and Redis CPU "
					+ "summed over the 3 masters";
		}

		@Override
		public void close() {
			cluster.close();
		}

	}

	/** 5 independent {@code redis-server}s. */
	static final class Quorum extends RedisNodes {

		static final int NODES = 5;

		private final List<RedisServer> nodes;

		Quorum(List<RedisServer> nodes) {
			this.nodes = List.copyOf(nodes);
		}

		@Override
		List<RedisServer> meteredNodes() {
			return nodes;
		}

		@Override
		RedisServer server() {
			return nodes.get(0);
		}

		@Override
		List<RedisServer> quorumNodes() {
			return nodes;
		}

		@Override
		void flushAll() {
			nodes.forEach(RedisServer::flushAll);
		}

		@Override
		String describe() {
			return NODES + " independent redis-server " + version(nodes.get(0))
					+ " on loopback, started by the harness; single-node implementations use the first one; "
					+ "commands and Redis CPU summed over all " + NODES;
		}

		@Override
		public void close() {
			RuntimeException failure = null;
			for (RedisServer node : nodes) {
				try {
					node.close();
				}
				catch (RuntimeException e) {
					failure = failure == null ? e : failure;
				}
			}
			if (failure != null) {
				throw failure;
			}
		}

	}

	static String version(RedisServer server) {
		for (String line : server.command("INFO", "server").split("\\R")) {
			if (line.startsWith("redis_version:")) {
				return line.substring("redis_version:".length()).trim();
			}
		}
		return "?";
	}

}
