package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A master, two replicas and three Sentinels watching them (quorum 2), each a
 * {@link RedisServer} on a free loopback port, for tests of Sentinel mode: helpers fail
 * the master over, kill it, and lose unreplicated writes the way a production Sentinel
 * setup can.
 *
 * <pre>{@code
 * try (RedisSentinelGroup group = RedisSentinelGroup.start()) {
 *     // spring.data.redis.sentinel.master / .nodes
 *     String master = group.masterName();
 *     String nodes = group.sentinelNodes();
 *     RedisServer promoted = group.killMaster(); // SIGKILL, the Sentinels promote a replica
 * }
 * }</pre>
 *
 * <p>
 * Sentinels run with {@code down-after-milliseconds} 2 s and {@code failover-timeout} 5 s
 * by default, so a killed master is replaced in a few seconds, and
 * {@code resolve-hostnames no}. Their configuration files (which Sentinel rewrites) live
 * in a temporary directory deleted on {@link #close()}. Every wait is bounded (30 s) and
 * fails with what each Sentinel reports; none relies on how fast Sentinel reacts.
 */
public final class RedisSentinelGroup implements AutoCloseable {

	private static final int REPLICAS = 2;

	private static final int SENTINELS = 3;

	private static final int QUORUM = 2;

	private static final Duration TIMEOUT = RedisCluster.TOPOLOGY_TIMEOUT;

	private static final Duration FAILOVER_RETRY_INTERVAL = Duration.ofSeconds(10);

	private static final Duration FAILOVER_REFUSED_RETRY_INTERVAL = Duration.ofMillis(500);

	private final String masterName;

	private final TopologyResources resources;

	/** The first master, then the replicas, as started; roles change with failovers. */
	private final List<RedisServer> servers = new CopyOnWriteArrayList<>();

	private final List<RedisServer> sentinels = new CopyOnWriteArrayList<>();

	/** Why Sentinel last refused SENTINEL FAILOVER, for failure messages. */
	private volatile String lastFailoverRefusal;

	private final SentinelGroupHealth health = new SentinelGroupHealth(this);

	private RedisSentinelGroup(String masterName, TopologyResources resources) {
		this.masterName = masterName;
		this.resources = resources;
	}

	/** Starts a group with the defaults and returns once it is healthy. */
	public static RedisSentinelGroup start() {
		return builder().start();
	}

	public static Builder builder() {
		return new Builder();
	}

	/**
	 * The name the Sentinels monitor the master under, for
	 * {@code spring.data.redis.sentinel.master}.
	 */
	public String masterName() {
		return masterName;
	}

	/**
	 * Every Sentinel as {@code 127.0.0.1:<port>}, comma-separated, for
	 * {@code spring.data.redis.sentinel.nodes}.
	 */
	public String sentinelNodes() {
		return sentinels.stream()
			.map(sentinel -> sentinel.host() + ":" + sentinel.port())
			.collect(Collectors.joining(","));
	}

	public List<RedisServer> sentinels() {
		return List.copyOf(sentinels);
	}

	/** The three data nodes, whatever their role now and whether running or not. */
	public List<RedisServer> servers() {
		return List.copyOf(servers);
	}

	/**
	 * The master as the first Sentinel that answers reports it
	 * ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}).
	 */
	public RedisServer master() {
		RuntimeException failure = null;
		for (RedisServer sentinel : sentinels) {
			try {
				return serverOnPort(reportedMasterPort(sentinel));
			}
			catch (RedisServerException | UncheckedIOException e) {
				failure = e;
			}
		}
		throw new RedisServerException("no Sentinel reports a master for " + masterName, failure);
	}

	/**
	 * The running data nodes other than the {@linkplain #master() master}, frozen ones
	 * included.
	 */
	public List<RedisServer> replicas() {
		RedisServer master = master();
		return servers.stream()
			.filter(server -> server.isRunning() && !server.equals(master))
			.sorted(Comparator.comparingInt(RedisServer::port))
			.toList();
	}

	/**
	 * Fails the master over with {@code SENTINEL FAILOVER} and returns the new master
	 * once every Sentinel reports it and the group is {@linkplain #awaitHealthy()
	 * healthy} again, the old master replicating from it (told to with {@code REPLICAOF}
	 * right away instead of after the 20 s or so Sentinel would take). Unlike the
	 * cluster's {@code CLUSTER FAILOVER}, Sentinel does not wait for the promoted replica
	 * to catch up: what it had not received yet is lost.
	 */
	public RedisServer failover() {
		RedisServer oldMaster = master();
		long[] nextRequest = { System.nanoTime() };
		BoundedWait.until("every Sentinel reports a new master after SENTINEL FAILOVER", TIMEOUT, () -> {
			if (everySentinelReports(oldMaster) && System.nanoTime() - nextRequest[0] >= 0) {
				// Sentinel refuses (-NOGOODSLAVE) while its news of the replicas is
				// stale,
				// e.g. right after they were paused: ask again soon. An accepted request
				// is repeated only if nothing happened for a long while.
				boolean accepted = requestFailover();
				nextRequest[0] = System.nanoTime()
						+ (accepted ? FAILOVER_RETRY_INTERVAL : FAILOVER_REFUSED_RETRY_INTERVAL).toNanos();
			}
			return !reportedMasterPorts().contains(oldMaster.port()) && reportedMasterPorts().size() == 1;
		}, this::describe);
		RedisServer newMaster = master();
		if (RedisCluster.role(oldMaster).equals("master")) {
			// Sentinel demotes a master it has replaced only after seeing it report the
			// old role for a while (about 20 s): do now what it would do then.
			oldMaster.command("REPLICAOF", newMaster.host(), Integer.toString(newMaster.port()));
		}
		awaitHealthy();
		return newMaster;
	}

	/**
	 * Kills the master with SIGKILL, as a crash would, and returns the replica the
	 * Sentinels promoted once the group is {@linkplain #awaitHealthy() healthy} again.
	 * The killed node stays down until {@link #restartAsReplica}.
	 */
	public RedisServer killMaster() {
		RedisServer master = master();
		master.kill();
		return awaitPromotionReplacing(master, "after SIGKILL of master " + master.port());
	}

	/**
	 * Starts a killed data node again, empty, on its port, points it at the current
	 * master (as Sentinel would once it notices) and returns once the group is
	 * {@linkplain #awaitHealthy() healthy} with it as a replica.
	 */
	public void restartAsReplica(RedisServer killed) {
		if (!servers.contains(Objects.requireNonNull(killed, "killed"))) {
			throw new IllegalArgumentException(killed + " is not a data node of this group: " + ports(servers));
		}
		if (killed.isRunning()) {
			throw new IllegalStateException("node " + killed.port() + " is running; only a killed node can rejoin");
		}
		RedisServer master = master();
		killed.restartEmpty();
		killed.command("REPLICAOF", master.host(), Integer.toString(master.port()));
		awaitHealthy();
	}

	/**
	 * {@linkplain ReplicationFreeze Freezes} replication from the master to both replicas
	 * (Sentinel promotes the most up-to-date replica, so freezing one would not lose
	 * anything): writes the master acknowledges from now on reach no replica until
	 * {@link ReplicationFreeze#resume()}.
	 */
	public ReplicationFreeze freezeReplication() {
		return ReplicationFreeze.freeze(master(), replicas());
	}

	/**
	 * The failover-loss scenario, reliably: freezes replication to both replicas, runs
	 * {@code writes} (e.g. a client acquiring a lock), kills the master with SIGKILL,
	 * lets the replicas continue and returns the one the Sentinels promoted once the
	 * group is {@linkplain #awaitHealthy() healthy}. Everything {@code writes} wrote to
	 * the master is absent on the returned node; everything written before is there. If
	 * {@code writes} throws, replication is resumed and nothing is killed. {@code writes}
	 * may take its time: a stopped replica notices its link is gone only once it
	 * continues, so Sentinel does not judge it too stale to promote.
	 */
	public RedisServer loseUnreplicatedWrites(Runnable writes) {
		Objects.requireNonNull(writes, "writes");
		RedisServer master = master();
		try (ReplicationFreeze freeze = freezeReplication()) {
			writes.run();
			master.kill();
		}
		return awaitPromotionReplacing(master,
				"after replication was frozen and master " + master.port() + " was killed");
	}

	/** {@code FLUSHALL} on the master. */
	public void flushAll() {
		master().flushAll();
	}

	/**
	 * Returns once every Sentinel reports the same running master and sees it up with no
	 * failover going on, knows the two other Sentinels and reaches every running,
	 * unpaused replica, and each of those replicas reports its link to that master up.
	 * @throws RedisServerException if that does not happen within 30 s, with what each
	 * Sentinel reports
	 */
	public void awaitHealthy() {
		BoundedWait.until("every Sentinel reports one master, up, with its replicas and the other Sentinels", TIMEOUT,
				health::isHealthy, this::describe);
	}

	/**
	 * Kills every process of the group, the Sentinels first, and deletes every file.
	 * Calling it again does nothing.
	 */
	@Override
	public void close() {
		resources.close();
	}

	/** Each data node's role and each Sentinel's report, for failure messages. */
	public String describe() {
		return health.describe(lastFailoverRefusal);
	}

	@Override
	public String toString() {
		return "RedisSentinelGroup[" + masterName + ", data nodes " + ports(servers) + ", sentinels " + sentinelNodes()
				+ "]";
	}

	// ----------------------------------------------------------------------------------------------

	/** Where the topology keeps its own files; for tests of the clean-up. */
	Path directory() {
		return resources.directory();
	}

	private RedisServer awaitPromotionReplacing(RedisServer oldMaster, String when) {
		BoundedWait.until(
				"every Sentinel reports a promoted replica " + when, TIMEOUT, () -> !everySentinelReports(oldMaster)
						&& reportedMasterPorts().size() == 1 && !reportedMasterPorts().contains(oldMaster.port()),
				this::describe);
		awaitHealthy();
		return master();
	}

	/**
	 * @return whether the Sentinel accepted it
	 */
	private boolean requestFailover() {
		try {
			sentinels.get(0).command(RedisCluster.PROBE_TIMEOUT, "SENTINEL", "FAILOVER", masterName);
			return true;
		}
		catch (RedisServerException e) {
			lastFailoverRefusal = e.getMessage();
			return false;
		}
	}

	private boolean everySentinelReports(RedisServer master) {
		return reportedMasterPorts().equals(List.of(master.port()));
	}

	/** The distinct master ports the Sentinels report. */
	List<Integer> reportedMasterPorts() {
		return sentinels.stream().map(this::reportedMasterPort).distinct().toList();
	}

	private int reportedMasterPort(RedisServer sentinel) {
		List<String> address = sentinel
			.command(RedisCluster.PROBE_TIMEOUT, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", masterName)
			.lines()
			.toList();
		return Integer.parseInt(address.get(1));
	}

	RedisServer serverOnPort(int port) {
		return servers.stream()
			.filter(server -> server.port() == port)
			.findFirst()
			.orElseThrow(() -> new RedisServerException(
					"Sentinel reports a master on port " + port + ", which is no data node of " + this));
	}

	static String ports(List<RedisServer> servers) {
		return ReplicationFreeze.ports(servers);
	}

	// ----------------------------------------------------------------------------------------------
	// startup

	private void startServers(Builder builder) {
		RedisServer master = resources.add(builder.configure(RedisServer.builder()).start());
		servers.add(master);
		for (int i = 0; i < REPLICAS; i++) {
			servers.add(resources.add(builder.configure(RedisServer.builder().replicaOf(master)).start()));
		}
		for (int i = 0; i < SENTINELS; i++) {
			Path config = resources.resolve("sentinel-" + i + ".conf");
			writeSentinelConfig(config, builder, master);
			sentinels.add(resources.add(RedisServer.builder().configFile(config).arg("sentinel").start()));
		}
	}

	private void writeSentinelConfig(Path file, Builder builder, RedisServer master) {
		String config = String.join("\n", "sentinel resolve-hostnames no",
				"sentinel monitor " + masterName + " " + master.host() + " " + master.port() + " " + QUORUM,
				"sentinel down-after-milliseconds " + masterName + " " + builder.downAfter.toMillis(),
				"sentinel failover-timeout " + masterName + " " + builder.failoverTimeout.toMillis(),
				"sentinel parallel-syncs " + masterName + " " + REPLICAS, "");
		try {
			Files.writeString(file, config);
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not write the Sentinel configuration " + file, e);
		}
	}

	/**
	 * Configures a {@link RedisSentinelGroup} before starting it.
	 */
	public static final class Builder {

		private String masterName = "distlock";

		private Duration downAfter = Duration.ofSeconds(2);

		private Duration failoverTimeout = Duration.ofSeconds(5);

		private final List<List<String>> extraArgs = new ArrayList<>();

		private Builder() {
		}

		/**
		 * The name the Sentinels monitor the master under; {@code distlock} by default.
		 */
		public Builder masterName(String name) {
			if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
				throw new IllegalArgumentException(
						"masterName must be letters, digits, '.', '_' or '-' only, was " + name);
			}
			this.masterName = name;
			return this;
		}

		/**
		 * How long the master may not answer before a Sentinel considers it down
		 * ({@code down-after-milliseconds}); 2 s by default. Much less is fragile: a
		 * Sentinel reconnects a dropped link at most once a second, and a newly promoted
		 * master drops every client's link, so with 1 s Sentinels have been seen to fail
		 * over a healthy new master again.
		 */
		public Builder downAfter(Duration downAfter) {
			if (downAfter == null || downAfter.toMillis() < 100) {
				throw new IllegalArgumentException("downAfter must be at least 100 ms, was " + downAfter);
			}
			this.downAfter = downAfter;
			return this;
		}

		/**
		 * How long a failover may take before Sentinel gives it up
		 * ({@code failover-timeout}; a new attempt follows after twice this); 5 s by
		 * default. Much less lets a slow promotion on a loaded machine be given up,
		 * leaving a second master until Sentinel corrects it.
		 */
		public Builder failoverTimeout(Duration failoverTimeout) {
			if (failoverTimeout == null || failoverTimeout.toMillis() < 100) {
				throw new IllegalArgumentException("failoverTimeout must be at least 100 ms, was " + failoverTimeout);
			}
			this.failoverTimeout = failoverTimeout;
			return this;
		}

		/**
		 * Adds a flag to the master and the replicas (not the Sentinels), e.g.
		 * {@code arg("maxmemory-policy", "noeviction")}; see
		 * {@link RedisServer.Builder#arg}.
		 */
		public Builder arg(String name, String... values) {
			List<String> arg = new ArrayList<>();
			arg.add(Objects.requireNonNull(name, "name"));
			arg.addAll(List.of(values));
			extraArgs.add(arg);
			return this;
		}

		/**
		 * Starts the data nodes and the Sentinels and returns once the group is
		 * {@linkplain RedisSentinelGroup#awaitHealthy() healthy}, printing how long that
		 * took.
		 */
		public RedisSentinelGroup start() {
			long started = System.nanoTime();
			TopologyResources resources = TopologyResources.create("distlock-redis-sentinel-");
			RedisSentinelGroup group = new RedisSentinelGroup(masterName, resources);
			try {
				group.startServers(this);
				group.awaitHealthy();
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
			System.out.println("[redis-sentinel] 1 master + " + REPLICAS + " replicas + " + SENTINELS
					+ " sentinels ready in " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms: master "
					+ group.masterName + ", sentinels " + group.sentinelNodes());
			return group;
		}

		private RedisServer.Builder configure(RedisServer.Builder node) {
			for (List<String> arg : extraArgs) {
				node.arg(arg.get(0), arg.subList(1, arg.size()).toArray(String[]::new));
			}
			return node;
		}

	}

}
