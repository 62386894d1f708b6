package io.github.distlock.testsupport;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

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
 * by default, so a killed master is replaced in four to six seconds, and
 * {@code resolve-hostnames no}. Their configuration files (which Sentinel rewrites) live
 * in a temporary directory deleted on {@link #close()}. Every wait is bounded (30 s) and
 * fails with what each Sentinel reports; none relies on how fast Sentinel reacts.
 *
 * <p>
 * The queries ({@link #master()}, {@link #replicas()}, ...) may be called from any
 * thread. The helpers that change the topology are meant to be called one at a time, e.g.
 * from the test thread while client threads keep working.
 */
public final class RedisSentinelGroup extends RedisTopology {

	private static final Duration FAILOVER_RETRY_INTERVAL = Duration.ofSeconds(10);

	private static final Duration FAILOVER_REFUSED_RETRY_INTERVAL = Duration.ofMillis(500);

	private final String masterName;

	private final Sentinels sentinels;

	private final SentinelGroupHealth health = new SentinelGroupHealth(this);

	RedisSentinelGroup(String masterName, TopologyResources resources) {
		super(resources, "a data node of this group");
		this.masterName = masterName;
		this.sentinels = new Sentinels(masterName);
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
		return sentinels.nodes();
	}

	public List<RedisServer> sentinels() {
		return sentinels.list();
	}

	/**
	 * The master as the first Sentinel that answers reports it
	 * ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}).
	 */
	public RedisServer master() {
		return serverOnPort(sentinels.masterPort());
	}

	/**
	 * The running data nodes other than the {@linkplain #master() master}, frozen ones
	 * included.
	 */
	public List<RedisServer> replicas() {
		RedisServer master = master();
		return servers().stream()
			.filter(server -> server.isRunning() && !server.equals(master))
			.sorted(Comparator.comparingInt(RedisServer::port))
			.toList();
	}

	/**
	 * Fails the master over with {@code SENTINEL FAILOVER} and returns the new master
	 * once every Sentinel reports it and the group is {@linkplain #awaitHealthy()
	 * healthy} again, the old master replicating from it. The old master is demoted the
	 * way Sentinel does it ({@code REPLICAOF}, then its clients' connections ended), but
	 * right away instead of after the 20 s or so Sentinel would take. Unlike the
	 * cluster's {@code CLUSTER FAILOVER}, Sentinel does not wait for the promoted replica
	 * to catch up: what it had not received yet is lost.
	 */
	public RedisServer failover() {
		RedisServer oldMaster = master();
		long[] nextRequest = { System.nanoTime() };
		await("every Sentinel reports a new master after SENTINEL FAILOVER", () -> {
			if (sentinels.allReport(oldMaster) && System.nanoTime() - nextRequest[0] >= 0) {
				// Sentinel refuses (-NOGOODSLAVE) while its news of the replicas is
				// stale,
				// e.g. right after they were paused: ask again soon. An accepted request
				// is repeated only if nothing happened for a long while.
				boolean accepted = sentinels.requestFailover();
				nextRequest[0] = System.nanoTime()
						+ (accepted ? FAILOVER_RETRY_INTERVAL : FAILOVER_REFUSED_RETRY_INTERVAL).toNanos();
			}
			return sentinels.allReportOneMasterOtherThan(oldMaster);
		});
		RedisServer newMaster = master();
		if (role(oldMaster).equals("master")) {
			// Sentinel demotes a master it has replaced only after seeing it report the
			// old role for a while (about 20 s): do now what it would do then, ending
			// the clients' connections as it does, so they ask the Sentinels again.
			oldMaster.command("REPLICAOF", newMaster.host(), Integer.toString(newMaster.port()));
			oldMaster.command("CLIENT", "KILL", "TYPE", "normal");
			oldMaster.command("CLIENT", "KILL", "TYPE", "pubsub");
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
	@Override
	public void restartAsReplica(RedisServer killed) {
		requireKilled(killed);
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
	@Override
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
	@Override
	public void awaitHealthy() {
		await("every Sentinel reports one master, up, with its replicas and the other Sentinels", health::isHealthy);
	}

	/** Each data node's role and each Sentinel's report, for failure messages. */
	@Override
	public String describe() {
		return health.describe(sentinels.lastFailoverRefusal());
	}

	@Override
	public String toString() {
		return "RedisSentinelGroup[" + masterName + ", data nodes " + ports(servers()) + ", sentinels "
				+ sentinelNodes() + "]";
	}

	// ----------------------------------------------------------------------------------------------

	private RedisServer awaitPromotionReplacing(RedisServer oldMaster, String when) {
		await("every Sentinel reports a promoted replica " + when,
				() -> sentinels.allReportOneMasterOtherThan(oldMaster));
		awaitHealthy();
		return master();
	}

	/** The distinct master ports the Sentinels report. */
	List<Integer> reportedMasterPorts() {
		return sentinels.reportedMasterPorts();
	}

	/** For {@link SentinelGroupFormation}: a started Sentinel, closed with the group. */
	void addSentinel(RedisServer sentinel) {
		sentinels.add(resources().add(sentinel));
	}

	/**
	 * Configures a {@link RedisSentinelGroup} before starting it.
	 */
	public static final class Builder {

		private String masterName = "distlock";

		private Duration downAfter = Duration.ofSeconds(2);

		private Duration failoverTimeout = Duration.ofSeconds(5);

		private final NodeArgs nodeArgs = new NodeArgs();

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
			nodeArgs.add(name, values);
			return this;
		}

		/**
		 * Starts the data nodes and the Sentinels and returns once the group is
		 * {@linkplain RedisSentinelGroup#awaitHealthy() healthy}, printing how long that
		 * took.
		 */
		public RedisSentinelGroup start() {
			return SentinelGroupFormation.start(masterName, downAfter, failoverTimeout, nodeArgs);
		}

	}

}
