package io.github.distlock.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
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
 * in two to four seconds; from when the others agree it failed until then, the whole
 * cluster answers {@code CLUSTERDOWN}, as with Redis's default
 * {@code cluster-require-full-coverage yes}), {@code cluster-replica-validity-factor 0}
 * (a replica that missed writes may still be promoted: the failover-loss scenario),
 * {@code cluster-allow-replica-migration no} (replicas stay with their master) and, like
 * every {@link RedisServer}, without persistence. The {@code nodes.conf} files are kept
 * outside the servers' directories, so a restarted node keeps its identity and rejoins as
 * a replica. Needs Redis 7 ({@code cluster-port}, {@code ADDSLOTSRANGE}).
 *
 * <p>
 * Every wait is bounded (30 s) and fails with a description of the topology; none relies
 * on how fast the cluster reacts. {@link #close()} kills every node and deletes every
 * file; a JVM shutdown hook does the same if a test never gets there.
 *
 * <p>
 * The queries ({@link #masters()}, {@link #masterOf}, ...) may be called from any thread.
 * The helpers that change the topology are meant to be called one at a time, e.g. from
 * the test thread while client threads keep working.
 */
public final class RedisCluster extends RedisTopology {

	/** How many hash slots a Redis Cluster has. */
	public static final int SLOTS = 16384;

	/**
	 * {@code cluster-port} and {@code ADDSLOTSRANGE} are new in 7.0; so is sharded
	 * pub/sub.
	 */
	static final RedisVersionRequirement REQUIREMENT = new RedisVersionRequirement("RedisCluster", 7,
			"cluster-port, CLUSTER ADDSLOTSRANGE, sharded pub/sub");

	private final ClusterView view = new ClusterView(this);

	private final ClusterHealth health = new ClusterHealth(this);

	RedisCluster(TopologyResources resources) {
		super(resources, "a node of this cluster");
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
		return servers().stream().map(server -> server.host() + ":" + server.port()).collect(Collectors.joining(","));
	}

	/** The masters serving slots now, ordered by their first slot. */
	public List<RedisServer> masters() {
		return view.masters();
	}

	/** The running replicas (frozen ones included), ordered by port. */
	public List<RedisServer> replicas() {
		return view.replicas();
	}

	/**
	 * The replica of {@code master}.
	 * @throws IllegalStateException if it has none or more than one
	 */
	public RedisServer replicaOf(RedisServer master) {
		List<RedisServer> replicas = replicasOf(master);
		if (replicas.size() != 1) {
			throw new IllegalStateException("master " + master.port() + " has " + replicas.size()
					+ " replicas, expected one: " + ports(replicas) + "\n" + describe());
		}
		return replicas.get(0);
	}

	/** The replicas of {@code master}, frozen and failing ones included. */
	public List<RedisServer> replicasOf(RedisServer master) {
		return view.replicasOf(master);
	}

	/**
	 * The node id ({@code CLUSTER MYID}) of {@code node}, which survives restarts; learnt
	 * while the cluster formed.
	 */
	public String nodeId(RedisServer node) {
		return view.nodeId(node);
	}

	/**
	 * The hash slot of {@code key}, as {@code CLUSTER KEYSLOT} on a live node computes
	 * it.
	 */
	public int keySlot(String key) {
		return view.keySlot(Objects.requireNonNull(key, "key"));
	}

	/** The master that serves {@code key} now. */
	public RedisServer masterOf(String key) {
		return masterForSlot(keySlot(key));
	}

	/**
	 * The master that serves {@code slot} now, as a live node sees it.
	 * @throws IllegalArgumentException if there is no such slot
	 * @throws RedisServerException if no master serves it
	 */
	public RedisServer masterForSlot(int slot) {
		return view.masterForSlot(slot);
	}

	/**
	 * Fails {@code master} over to its replica with {@code CLUSTER FAILOVER} (the
	 * coordinated kind: the master stops taking writes until the replica has caught up,
	 * so nothing is lost), and returns the promoted replica once the old master
	 * replicates from it and the cluster is {@linkplain #awaitHealthy() healthy}.
	 * @throws IllegalStateException if its replica is paused
	 */
	public RedisServer failover(RedisServer master) {
		view.requireServingMaster(master);
		RedisServer replica = ClusterFailover.requireUnpaused(replicaOf(master), master);
		return ClusterFailover.coordinated(this, master, replica);
	}

	/**
	 * Kills {@code master} with SIGKILL, as a crash would, and returns its replica once
	 * the cluster has promoted it and is {@linkplain #awaitHealthy() healthy} again. What
	 * the master acknowledged but had not yet sent to the replica is lost; with
	 * replication frozen that is everything since the freeze (see
	 * {@link #loseUnreplicatedWrites}). The killed node stays down until
	 * {@link #restartAsReplica}.
	 * @throws IllegalStateException if its replica is paused: it could not be promoted
	 */
	public RedisServer killMaster(RedisServer master) {
		view.requireServingMaster(master);
		RedisServer replica = ClusterFailover.requireUnpaused(replicaOf(master), master);
		master.kill();
		ClusterFailover.awaitPromotion(this, replica, "after SIGKILL of master " + master.port());
		return replica;
	}

	/**
	 * Starts a {@linkplain #killMaster killed} node again, empty, on its port and with
	 * its node id, and returns once it has rejoined as a replica of the master that took
	 * its slots (Redis turns a returning master whose slots moved on into a replica of
	 * their new owner) and the cluster is {@linkplain #awaitHealthy() healthy}.
	 */
	@Override
	public void restartAsReplica(RedisServer killed) {
		requireKilled(killed).restart();
		await("restarted node " + killed.port() + " rejoined as a replica", () -> role(killed).startsWith("slave"));
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
		if (!masterForSlot(slot).equals(requireMember(from))) {
			throw new IllegalArgumentException("slot " + slot + " is served by " + masterForSlot(slot).port()
					+ ", not by " + from.port() + ", so it cannot be migrated from there");
		}
		view.requireServingMaster(to);
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
		view.requireServingMaster(master);
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
		ClusterFailover.awaitPromotion(this, replica,
				"after replication was frozen and master " + master.port() + " was killed");
		return replica;
	}

	/** {@code FLUSHALL} on every running master. */
	@Override
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
	@Override
	public void awaitHealthy() {
		await("cluster_state:ok on every node, one view of slots and roles, replicas in sync", health::isHealthy);
	}

	@Override
	public String toString() {
		return "RedisCluster[" + nodes() + "]";
	}

	/**
	 * What each node is and sees, for failure messages: its role and cluster state, and
	 * {@code CLUSTER NODES} of the first live node.
	 */
	@Override
	public String describe() {
		return health.describe();
	}

	// ----------------------------------------------------------------------------------------------

	RedisServer anyLiveNode() {
		return view.anyLiveNode();
	}

	/**
	 * Configures a {@link RedisCluster} before starting it.
	 */
	public static final class Builder {

		private Duration nodeTimeout = Duration.ofSeconds(1);

		private final NodeArgs nodeArgs = new NodeArgs();

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
			nodeArgs.add(name, values);
			return this;
		}

		/**
		 * Starts the six nodes, forms the cluster and returns once it is
		 * {@linkplain RedisCluster#awaitHealthy() healthy}, printing how long that took.
		 * @throws RedisServerException if the {@code redis-server} that would run is
		 * older than 7.0, naming it and what to install
		 */
		public RedisCluster start() {
			REQUIREMENT.check();
			return ClusterFormation.start(nodeTimeout, nodeArgs);
		}

	}

}
