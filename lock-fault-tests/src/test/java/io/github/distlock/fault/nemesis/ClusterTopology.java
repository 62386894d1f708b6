package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.github.distlock.fault.nemesis.Fault.Excuse;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisServer;

import static io.github.distlock.fault.nemesis.FaultAction.between;
import static io.github.distlock.fault.nemesis.FaultAction.hold;

/**
 * A Redis Cluster of three masters with a replica each; clients use Lettuce's cluster
 * client (adaptive and periodic topology refresh). A coordinated {@code CLUSTER FAILOVER}
 * (the master stops taking writes until its replica caught up) and a frozen replica keep
 * exclusion; a master killed, with or without replication frozen before, may lose the
 * last acquisitions on its slots, and excuses overlaps in its window.
 */
final class ClusterTopology implements NemesisTopology {

	/**
	 * How long a holder caught by a failover that loses writes thinks between its read
	 * and its write: longer than the promotion takes, so a new holder gets in first.
	 */
	private static final Duration HOLDER_THINK = Duration.ofSeconds(4);

	private final RedisCluster cluster;

	ClusterTopology() {
		this.cluster = RedisCluster.builder().arg("maxmemory-policy", "noeviction").start();
	}

	@Override
	public String name() {
		return "Cluster: 3 masters + 3 replicas";
	}

	@Override
	public List<String> clientArgs(int index) {
		return List.of("--store=cluster", "--nodes=" + this.cluster.nodes());
	}

	@Override
	public List<FaultAction> faults(ClientFaults clients) {
		return List.of(this::coordinatedFailover, this::killMaster, (random) -> failoverLosingWrites(random, clients),
				this::pauseReplica);
	}

	private Fault coordinatedFailover(Random random) {
		RedisServer master = pickMaster(random);
		long start = System.nanoTime();
		this.cluster.failover(master);
		return new Fault("cluster-failover", "node " + master.port(), start, System.nanoTime(), Excuse.NONE);
	}

	private Fault killMaster(Random random) {
		RedisServer master = pickMaster(random);
		long start = System.nanoTime();
		try {
			this.cluster.killMaster(master);
		}
		finally {
			if (!master.isRunning()) {
				this.cluster.restartAsReplica(master);
			}
		}
		return new Fault("kill-master", "node " + master.port(), start, System.nanoTime(), Excuse.LOCKS_LOST);
	}

	/**
	 * Replication frozen while the clients work on, then the master killed while a holder
	 * thinks between its read and its write (its lock may be on another master).
	 */
	private Fault failoverLosingWrites(Random random, ClientFaults clients) {
		RedisServer master = pickMaster(random);
		long start = System.nanoTime();
		try {
			this.cluster.loseUnreplicatedWrites(master, () -> {
				hold(between(random, 200, 1000));
				clients.stallHolder(random, HOLDER_THINK);
			});
		}
		finally {
			if (!master.isRunning()) {
				this.cluster.restartAsReplica(master);
			}
		}
		return new Fault("failover-losing-writes", "node " + master.port(), start, System.nanoTime(),
				Excuse.LOCKS_LOST);
	}

	private Fault pauseReplica(Random random) {
		List<RedisServer> replicas = this.cluster.replicas();
		RedisServer replica = replicas.get(random.nextInt(replicas.size()));
		long start = System.nanoTime();
		try {
			replica.pause();
			// Less than the cluster's node timeout (1 s): nobody declares it failed.
			hold(between(random, 200, 700));
		}
		finally {
			replica.resume();
		}
		return new Fault("pause-replica", "node " + replica.port(), start, System.nanoTime(), Excuse.NONE);
	}

	private RedisServer pickMaster(Random random) {
		List<RedisServer> masters = new ArrayList<>(this.cluster.masters());
		masters.sort((a, b) -> Integer.compare(a.port(), b.port()));
		return masters.get(random.nextInt(masters.size()));
	}

	@Override
	public List<String> lockKeys() {
		List<String> keys = new ArrayList<>();
		this.cluster.masters().forEach((master) -> keys.addAll(master.keys("distlock:{*}")));
		return keys;
	}

	@Override
	public void close() {
		this.cluster.close();
	}

}
