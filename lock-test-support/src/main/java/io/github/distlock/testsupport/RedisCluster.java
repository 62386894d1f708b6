package io.github.distlock.testsupport;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of 3 masters and 3 replicas, one {@link RedisServer} each on free
 * loopback ports, for tests of cluster mode: slots split evenly over the masters, one
 * replica per master, and helpers that fail masters over, move slots and lose
 * unreplicated writes the way a production cluster can.
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisCluster.start()) {
 *     String nodes = cluster.nodes();                 // spring.data.redis.cluster.nodes
 *     RedisServer master = cluster.masterOf("lock:{42}");
 *     RedisServer promoted = cluster.failover(master); // CLUSTER FAILOVER on its replica
 *     cluster.killMaster(promoted);                   // SIGKILL, the old master's replica takes over
 * }
 * }</pre>
 *
 * <p>
 * Nodes run with {@code cluster-node-timeout} 1 s by default (a killed master is replaced
 * in about two seconds), {@code cluster-replica-validity-factor 0} (a replica that missed
 * writes may still be promoted: the failover-loss scenario),
 * {@code cluster-allow-replica-migration no} (replicas stay with their master) and, like
 * every {@link RedisServer}, without persistence. The {@code nodes.conf} files are kept
 * outside the servers' directories, so a restarted node keeps its identity and rejoins as
 * a replica. Needs Redis 7 ({@code cluster-port}, {@code ADDSLOTSRANGE}).
 *
 * <p>
 * Every wait is bounded (30 s) and fails with a description of the topology; none relies
 * on how fast the cluster reacts. {@link #close()} kills every node and deletes every
 * file; a JVM shutdown hook does the same if a test never gets there.
 */
public final class RedisCluster implements AutoCloseable {

	/** How many hash slots a Redis Cluster has. */
	public static final int SLOTS = 16384;

	static final Duration TOPOLOGY_TIMEOUT = Duration.ofSeconds(30);

	/** Bounds every probe, so a node that hangs costs one poll, not the whole wait. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration FAILOVER_RETRY_INTERVAL = Duration.ofSeconds(10);

	private final TopologyResources resources;

	/** The masters as started, then their replicas in the same order. */
	private final List<RedisServer> servers = new CopyOnWriteArrayList<>();

	private final Map<RedisServer, String> ids = new ConcurrentHashMap<>();

	private final ClusterHealth health = new ClusterHealth(this);

	private RedisCluster(TopologyResources resources) {
		this.resources = resources;
	}

	/** Starts a cluster with the defaults and returns once it is healthy. */
	public static RedisCluster start() {
		return builder().start();
	}

	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Every node as {@code 127.0.0.1:<port>}, comma-separated, for
	 * {@code spring.data.redis.cluster.nodes}. Ports never change, also across failovers
	 * and restarts.
	 */
	public String nodes() {
		return servers.stream().map(server -> server.host() + ":" + server.port()).collect(Collectors.joining(","));
	}

	/** All six nodes, whatever their role now and whether running or not. */
	public List<RedisServer> servers() {
		return List.copyOf(servers);
	}

	/** The masters serving slots now, ordered by their first slot. */
	public List<RedisServer> masters() {
		return view().stream()
			.filter(entry -> entry.isMaster() && !entry.isFailing() && !entry.slots().isEmpty())
			.sorted(Comparator.comparingInt(entry -> entry.slots().nextSetBit(0)))
			.map(entry -> serverOnPort(entry.port()))
			.toList();
	}

	/** The running replicas (frozen ones included), ordered by port. */
	public List<RedisServer> replicas() {
		return view().stream()
			.filter(ClusterNodeEntry::isReplica)
			.map(entry -> serverOnPort(entry.port()))
			.filter(RedisServer::isRunning)
			.sorted(Comparator.comparingInt(RedisServer::port))
			.toList();
	}

	/**
	 * The replica of {@code master}.
	 * @throws IllegalStateException if it has none or more than one
	 */
	public RedisServer replicaOf(RedisServer master) {
		List<RedisServer> replicas = replicasOf(master);
		if (replicas.size() != 1) {
			throw new IllegalStateException("master " + master.port() + " has " + replicas.size()
					+ " replicas, expected one: " + ReplicationFreeze.ports(replicas) + "\n" + describe());
		}
		return replicas.get(0);
	}

	/** The replicas of {@code master}, frozen and failing ones included. */
	public List<RedisServer> replicasOf(RedisServer master) {
		String masterId = nodeId(master);
		return view().stream()
			.filter(entry -> entry.isReplica() && masterId.equals(entry.masterId()))
			.map(entry -> serverOnPort(entry.port()))
			.toList();
	}

	/**
	 * The node id ({@code CLUSTER MYID}) of {@code node}, which survives restarts; learnt
	 * while the cluster formed.
	 */
	public String nodeId(RedisServer node) {
		return ids.computeIfAbsent(requireMember(node), member -> member.command("CLUSTER", "MYID"));
	}

	/**
	 * The hash slot of {@code key}, as {@code CLUSTER KEYSLOT} on a live node computes
	 * it.
	 */
	public int keySlot(String key) {
		Objects.requireNonNull(key, "key");
		return Integer.parseInt(anyLiveNode().command(PROBE_TIMEOUT, "CLUSTER", "KEYSLOT", key));
	}

	/** The master that serves {@code key} now. */
	public RedisServer masterOf(String key) {
		return masterForSlot(keySlot(key));
	}

	/**
	 * The master that serves {@code slot} now, as a live node sees it.
	 * @throws RedisServerException if no master serves it
	 */
	public RedisServer masterForSlot(int slot) {
		requireSlot(slot);
		return view().stream()
			.filter(entry -> entry.isMaster() && !entry.isFailing() && entry.slots().get(slot))
			.map(entry -> serverOnPort(entry.port()))
			.findFirst()
			.orElseThrow(() -> new RedisServerException("no master serves slot " + slot + "\n" + describe()));
	}

	/**
	 * Fails {@code master} over to its replica with {@code CLUSTER FAILOVER} (the
	 * coordinated kind: the master stops taking writes until the replica has caught up,
	 * so nothing is lost), and returns the promoted replica once the old master
	 * replicates from it and the cluster is {@linkplain #awaitHealthy() healthy}.
	 */
	public RedisServer failover(RedisServer master) {
		requireServingMaster(master);
		RedisServer replica = replicaOf(master);
		long[] lastRequest = { System.nanoTime() };
		replica.command("CLUSTER", "FAILOVER");
		BoundedWait.until("replica " + replica.port() + " promoted by CLUSTER FAILOVER and master " + master.port()
				+ " replicating from it", TOPOLOGY_TIMEOUT, () -> {
					if (role(replica).startsWith("slave")
							&& elapsed(lastRequest[0]).compareTo(FAILOVER_RETRY_INTERVAL) > 0) {
						// A manual failover that timed out (5 s) on a loaded machine is
						// abandoned by Redis: ask again.
						lastRequest[0] = System.nanoTime();
						replica.command("CLUSTER", "FAILOVER");
					}
					return role(replica).equals("master") && role(master).equals("slave " + replica.port());
				}, health::describe);
		awaitHealthy();
		return replica;
	}

	/**
	 * Kills {@code master} with SIGKILL, as a crash would, and returns its replica once
	 * the cluster has promoted it and is {@linkplain #awaitHealthy() healthy} again. What
	 * the master acknowledged but had not yet sent to the replica is lost; with
	 * replication frozen that is everything since the freeze (see
	 * {@link #loseUnreplicatedWrites}). The killed node stays down until
	 * {@link #restartAsReplica}.
	 * @throws IllegalStateException if its replica is paused: it could never be promoted
	 */
	public RedisServer killMaster(RedisServer master) {
		requireServingMaster(master);
		RedisServer replica = replicaOf(master);
		if (replica.isPaused()) {
			throw new IllegalStateException("the replica " + replica.port() + " of master " + master.port()
					+ " is paused and could not take over; resume it first or use loseUnreplicatedWrites");
		}
		master.kill();
		awaitPromotion(replica, "after SIGKILL of master " + master.port());
		return replica;
	}

	/**
	 * Starts a {@linkplain #killMaster killed} node again, empty, on its port and with
	 * its node id, and returns once it has rejoined as a replica of the master that took
	 * its slots (Redis turns a returning master whose slots moved on into a replica of
	 * their new owner) and the cluster is {@linkplain #awaitHealthy() healthy}.
	 */
	public void restartAsReplica(RedisServer killed) {
		requireMember(killed);
		if (killed.isRunning()) {
			throw new IllegalStateException("node " + killed.port() + " is running; only a killed node can rejoin");
		}
		killed.restart();
		BoundedWait.until("restarted node " + killed.port() + " rejoined as a replica", TOPOLOGY_TIMEOUT,
				() -> role(killed).startsWith("slave"), health::describe);
		awaitHealthy();
	}

	/**
	 * Moves {@code slot} from master {@code from} to master {@code to} with the keys in
	 * it, the way {@code redis-cli --cluster reshard} does, and returns once every node
	 * agrees that {@code to} serves it.
	 */
	public void migrateSlot(int slot, RedisServer from, RedisServer to) {
		ClusterSlotMigration migration = beginSlotMigration(slot, from, to);
		migration.moveKeys();
		migration.finish();
	}

	/**
	 * Starts moving {@code slot} from {@code from} to {@code to} and returns with the
	 * slot half-migrated ({@code MIGRATING} on {@code from}, {@code IMPORTING} on
	 * {@code to}): clients get ASK redirects for keys not (or no longer) on {@code from}
	 * until {@link ClusterSlotMigration#finish()}.
	 */
	public ClusterSlotMigration beginSlotMigration(int slot, RedisServer from, RedisServer to) {
		requireSlot(slot);
		if (!masterForSlot(slot).equals(requireMember(from))) {
			throw new IllegalArgumentException("slot " + slot + " is served by " + masterForSlot(slot).port()
					+ ", not by " + from.port() + ", so it cannot be migrated from there");
		}
		requireServingMaster(to);
		if (from.equals(to)) {
			throw new IllegalArgumentException(
					"slot " + slot + " cannot be migrated from " + from.port() + " to itself");
		}
		return ClusterSlotMigration.begin(this, slot, from, to);
	}

	/**
	 * {@linkplain ReplicationFreeze Freezes} replication from {@code master} to its
	 * replica: writes the master acknowledges from now on do not reach the replica until
	 * {@link ReplicationFreeze#resume()}.
	 */
	public ReplicationFreeze freezeReplication(RedisServer master) {
		requireServingMaster(master);
		return ReplicationFreeze.freeze(master, replicasOf(master));
	}

	/**
	 * The failover-loss scenario, reliably: freezes replication from {@code master}, runs
	 * {@code writes} (e.g. a client acquiring a lock on that master), kills the master
	 * with SIGKILL, lets its replica continue and returns it once the cluster has
	 * promoted it and is {@linkplain #awaitHealthy() healthy}. Everything {@code writes}
	 * wrote to {@code master} is absent on the returned node; everything written before
	 * is there. If {@code writes} throws, replication is resumed and nothing is killed.
	 */
	public RedisServer loseUnreplicatedWrites(RedisServer master, Runnable writes) {
		Objects.requireNonNull(writes, "writes");
		RedisServer replica = replicaOf(master);
		try (ReplicationFreeze freeze = freezeReplication(master)) {
			writes.run();
			master.kill();
		}
		awaitPromotion(replica, "after replication was frozen and master " + master.port() + " was killed");
		return replica;
	}

	/** {@code FLUSHALL} on every running master. */
	public void flushAll() {
		for (RedisServer master : masters()) {
			master.flushAll();
		}
	}

	/**
	 * Returns once every running, unpaused node reports {@code cluster_state:ok}, all of
	 * them see the same masters, slots and replicas with none of them failing, and every
	 * such replica's link to its master is up.
	 * @throws RedisServerException if that does not happen within 30 s, describing the
	 * topology
	 */
	public void awaitHealthy() {
		BoundedWait.until("cluster_state:ok on every node, one view of slots and roles, replicas in sync",
				TOPOLOGY_TIMEOUT, health::isHealthy, health::describe);
	}

	/**
	 * Kills every node and deletes every file of the cluster. Calling it again does
	 * nothing.
	 */
	@Override
	public void close() {
		resources.close();
	}

	@Override
	public String toString() {
		return "RedisCluster[" + nodes() + "]";
	}

	/**
	 * What each node is and sees, for failure messages: its role and cluster state, and
	 * {@code CLUSTER NODES} of the first live node.
	 */
	public String describe() {
		return health.describe();
	}

	// ----------------------------------------------------------------------------------------------
	// for ClusterHealth and ClusterSlotMigration

	/** Where the topology keeps its own files; for tests of the clean-up. */
	Path directory() {
		return resources.directory();
	}

	/** For {@link ClusterFormation}: a started node, in the order masters, replicas. */
	void addNode(RedisServer node) {
		servers.add(node);
	}

	/** Running and not paused: the nodes that can answer. */
	List<RedisServer> liveNodes() {
		return servers.stream().filter(server -> server.isRunning() && !server.isPaused()).toList();
	}

	RedisServer serverOnPort(int port) {
		return servers.stream()
			.filter(server -> server.port() == port)
			.findFirst()
			.orElseThrow(
					() -> new IllegalStateException("no node of this cluster listens on " + port + ": " + nodes()));
	}

	/** {@code master}, or {@code slave <master port>}, from {@code ROLE}. */
	static String role(RedisServer server) {
		List<String> role = server.command(PROBE_TIMEOUT, "ROLE").lines().toList();
		return role.get(0).equals("slave") ? "slave " + role.get(2) : role.get(0);
	}

	// ----------------------------------------------------------------------------------------------

	private void awaitPromotion(RedisServer replica, String when) {
		BoundedWait.until("replica " + replica.port() + " promoted to master " + when, TOPOLOGY_TIMEOUT,
				() -> role(replica).equals("master"), health::describe);
		awaitHealthy();
	}

	/** {@code CLUSTER NODES} of the first live node that answers. */
	private List<ClusterNodeEntry> view() {
		RuntimeException failure = null;
		for (RedisServer node : liveNodes()) {
			try {
				return ClusterNodeEntry.parse(node.command(PROBE_TIMEOUT, "CLUSTER", "NODES"));
			}
			catch (RedisServerException | UncheckedIOException e) {
				failure = e;
			}
		}
		throw new RedisServerException("no node of the cluster answers CLUSTER NODES: " + nodes(), failure);
	}

	RedisServer anyLiveNode() {
		return liveNodes().stream()
			.findFirst()
			.orElseThrow(() -> new RedisServerException("no node of the cluster is running: " + nodes()));
	}

	private RedisServer requireMember(RedisServer node) {
		if (!servers.contains(Objects.requireNonNull(node, "node"))) {
			throw new IllegalArgumentException(node + " is not a node of this cluster: " + nodes());
		}
		return node;
	}

	private void requireServingMaster(RedisServer node) {
		if (!masters().contains(requireMember(node))) {
			throw new IllegalArgumentException("node " + node.port() + " is not a master serving slots; masters are "
					+ ReplicationFreeze.ports(masters()));
		}
	}

	private static void requireSlot(int slot) {
		if (slot < 0 || slot >= SLOTS) {
			throw new IllegalArgumentException("slot must be 0.." + (SLOTS - 1) + ", was " + slot);
		}
	}

	private static Duration elapsed(long sinceNanos) {
		return Duration.ofNanos(System.nanoTime() - sinceNanos);
	}

	/**
	 * Configures a {@link RedisCluster} before starting it.
	 */
	public static final class Builder {

		private Duration nodeTimeout = Duration.ofSeconds(1);

		private final List<List<String>> extraArgs = new ArrayList<>();

		private Builder() {
		}

		/**
		 * How long a node may not answer before the others consider it failing
		 * ({@code cluster-node-timeout}); a killed master is replaced after about this
		 * plus a second. 1 s by default.
		 */
		public Builder nodeTimeout(Duration timeout) {
			if (timeout == null || timeout.toMillis() < 100) {
				throw new IllegalArgumentException("nodeTimeout must be at least 100 ms, was " + timeout);
			}
			this.nodeTimeout = timeout;
			return this;
		}

		/**
		 * Adds a flag to every node, e.g. {@code arg("maxmemory-policy", "noeviction")};
		 * see {@link RedisServer.Builder#arg}.
		 */
		public Builder arg(String name, String... values) {
			List<String> arg = new ArrayList<>();
			arg.add(Objects.requireNonNull(name, "name"));
			arg.addAll(List.of(values));
			extraArgs.add(arg);
			return this;
		}

		/**
		 * Starts the six nodes, forms the cluster and returns once it is
		 * {@linkplain RedisCluster#awaitHealthy() healthy}, printing how long that took.
		 */
		public RedisCluster start() {
			long started = System.nanoTime();
			TopologyResources resources = TopologyResources.create("distlock-redis-cluster-");
			RedisCluster cluster = new RedisCluster(resources);
			try {
				ClusterFormation formation = new ClusterFormation(cluster, resources, nodeTimeout, extraArgs);
				formation.startNodes();
				formation.form();
			}
			catch (RuntimeException e) {
				try {
					resources.close();
				}
				catch (RuntimeException cleanupFailure) {
					e.addSuppressed(cleanupFailure);
				}
				throw e;
			}
			System.out.println("[redis-cluster] " + ClusterFormation.MASTERS + " masters + " + ClusterFormation.MASTERS
					+ " replicas ready in " + elapsed(started).toMillis() + " ms: " + cluster.nodes());
			return cluster;
		}

	}

}
