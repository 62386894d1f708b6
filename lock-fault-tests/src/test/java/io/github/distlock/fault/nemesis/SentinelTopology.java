package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.github.distlock.fault.nemesis.Fault.Excuse;
import io.github.distlock.testsupport.RedisSentinelGroup;
import io.github.distlock.testsupport.RedisServer;

import static io.github.distlock.fault.nemesis.FaultAction.between;
import static io.github.distlock.fault.nemesis.FaultAction.hold;

/**
 * One master, two asynchronously replicated replicas and three Sentinels; clients find
 * the master through the Sentinels. Failovers (requested, after the master was killed, or
 * after it was killed with replication frozen for up to 1.5 s) may lose the last
 * acquisitions, which Redis cannot promise to keep: they excuse overlaps in their window,
 * and only the fence protects the registers then. A replica frozen, or the master frozen
 * for less than half the Sentinels' down-after time (no failover), keep exclusion.
 */
final class SentinelTopology implements NemesisTopology {

	private final RedisSentinelGroup group;

	private final Duration downAfter = Duration.ofSeconds(2);

	SentinelTopology() {
		this.group = RedisSentinelGroup.builder()
			.downAfter(this.downAfter)
			.arg("maxmemory-policy", "noeviction")
			.start();
	}

	@Override
	public String name() {
		return "Sentinel: master + 2 replicas";
	}

	@Override
	public List<String> clientArgs(int index) {
		return List.of("--store=sentinel", "--nodes=" + this.group.sentinelNodes(),
				"--master=" + this.group.masterName());
	}

	@Override
	public List<FaultAction> faults() {
		return List.of(this::failover, this::killMaster, this::failoverLosingWrites, this::pauseReplica,
				this::pauseMasterBriefly);
	}

	private Fault failover(Random random) {
		long start = System.nanoTime();
		RedisServer master = this.group.failover();
		return new Fault("sentinel-failover", "to " + master.port(), start, System.nanoTime(), Excuse.LOCKS_LOST);
	}

	/** The master killed, a replica promoted, the old master back as a replica, empty. */
	private Fault killMaster(Random random) {
		long start = System.nanoTime();
		RedisServer killed = this.group.master();
		try {
			this.group.killMaster();
		}
		finally {
			if (!killed.isRunning()) {
				this.group.restartAsReplica(killed);
			}
		}
		return new Fault("kill-master", "node " + killed.port(), start, System.nanoTime(), Excuse.LOCKS_LOST);
	}

	/**
	 * Replication frozen while the clients work on, then the master killed: every lock
	 * taken or renewed since the freeze is gone on the promoted replica.
	 */
	private Fault failoverLosingWrites(Random random) {
		long start = System.nanoTime();
		RedisServer killed = this.group.master();
		try {
			this.group.loseUnreplicatedWrites(() -> hold(between(random, 200, 1500)));
		}
		finally {
			if (!killed.isRunning()) {
				this.group.restartAsReplica(killed);
			}
		}
		return new Fault("failover-losing-writes", "node " + killed.port(), start, System.nanoTime(),
				Excuse.LOCKS_LOST);
	}

	private Fault pauseReplica(Random random) {
		List<RedisServer> replicas = this.group.replicas();
		RedisServer replica = replicas.get(random.nextInt(replicas.size()));
		long start = System.nanoTime();
		try {
			replica.pause();
			hold(between(random, 300, 3000));
		}
		finally {
			replica.resume();
		}
		return new Fault("pause-replica", "node " + replica.port(), start, System.nanoTime(), Excuse.NONE);
	}

	private Fault pauseMasterBriefly(Random random) {
		RedisServer master = this.group.master();
		long start = System.nanoTime();
		try {
			master.pause();
			hold(between(random, 200, this.downAfter.toMillis() / 2));
		}
		finally {
			master.resume();
		}
		return new Fault("pause-master", "node " + master.port(), start, System.nanoTime(), Excuse.NONE);
	}

	@Override
	public List<String> lockKeys() {
		return new ArrayList<>(this.group.master().keys("distlock:{*}"));
	}

	@Override
	public void close() {
		this.group.close();
	}

}
