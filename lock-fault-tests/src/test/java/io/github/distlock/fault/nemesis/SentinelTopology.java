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
 * after it was killed with replication frozen for up to 1 s and a holder in its critical
 * section) may lose the last acquisitions, which Redis cannot promise to keep: they
 * excuse overlaps in their window, and only the fence protects the registers then. A
 * replica frozen, or the master frozen for less than half the Sentinels' down-after time
 * (no failover), keep exclusion.
 */
final class SentinelTopology implements NemesisTopology {

	/**
	 * How long a holder caught by a failover that loses writes thinks between its read
	 * and its write: longer than the promotion takes, so a new holder gets in first.
	 */
	private static final Duration HOLDER_THINK = Duration.ofSeconds(4);

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
	public List<FaultAction> faults(ClientFaults clients) {
		return List.of(this::failover, this::killMaster, (random) -> failoverLosingWrites(random, clients),
				this::pauseReplica, this::pauseMasterBriefly);
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
	 * Replication frozen while the clients work on, then the master killed while a holder
	 * thinks between its read and its write: every lock taken or renewed since the freeze
	 * is gone on the promoted replica, and that holder writes after a new holder did.
	 */
	private Fault failoverLosingWrites(Random random, ClientFaults clients) {
		long start = System.nanoTime();
		RedisServer killed = this.group.master();
		try {
			this.group.loseUnreplicatedWrites(() -> {
				hold(between(random, 200, 1000));
				clients.stallHolder(random, HOLDER_THINK);
			});
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
