package io.github.distlock.testsupport;

import java.time.Duration;
import java.util.List;

/**
 * Replication from one master to its replicas, frozen: every replica is stopped with
 * SIGSTOP and the master has dropped its connections to them, so nothing the master
 * acknowledges from now on reaches any replica until {@link #resume()}.
 *
 * <p>
 * Stopping the replicas alone would not do: the kernel keeps receiving into a stopped
 * process's socket buffer, so writes the master sends after the SIGSTOP could still be
 * read, and applied, the moment the replica continues, even if the master died in
 * between. Dropping the master's side of the link ({@code CLIENT KILL TYPE replica})
 * after the replicas are stopped leaves those writes only in the master's memory and
 * replication backlog, which is what a replica cut off by a partition or a slow link
 * misses.
 *
 * <p>
 * {@link #resume()} (or {@link #close()}) lets the replicas continue; if the master is
 * still running, it returns once they have reconnected and caught up (partial resync from
 * the backlog). If the master was killed meanwhile, the replicas come back without those
 * writes, and a failover promotes one of them: the failover-loss scenario that
 * {@link RedisCluster#loseUnreplicatedWrites} and
 * {@link RedisSentinelGroup#loseUnreplicatedWrites} play out.
 */
public final class ReplicationFreeze implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final RedisServer master;

	private final List<RedisServer> replicas;

	private boolean resumed;

	private ReplicationFreeze(RedisServer master, List<RedisServer> replicas) {
		this.master = master;
		this.replicas = List.copyOf(replicas);
	}

	/**
	 * Freezes replication from {@code master} to {@code replicas}, which must be all of
	 * its replicas, and returns once the master has none connected.
	 */
	static ReplicationFreeze freeze(RedisServer master, List<RedisServer> replicas) {
		if (replicas.isEmpty()) {
			throw new IllegalStateException("master " + master.port() + " has no replica to freeze");
		}
		ReplicationFreeze freeze = new ReplicationFreeze(master, replicas);
		try {
			replicas.forEach(RedisServer::pause);
			master.command("CLIENT", "KILL", "TYPE", "replica");
			BoundedWait.until("master " + master.port() + " without connected replicas after CLIENT KILL", TIMEOUT,
					() -> connectedReplicas(master) == 0, () -> master.command("INFO", "replication"));
			return freeze;
		}
		catch (RuntimeException e) {
			freeze.resumeProcesses();
			throw e;
		}
	}

	public RedisServer master() {
		return master;
	}

	/** The frozen replicas. */
	public List<RedisServer> replicas() {
		return replicas;
	}

	/**
	 * Lets the replicas continue (SIGCONT). If the master is running, waits until all of
	 * them are connected to it again and have caught up with its replication offset.
	 * Calling it again does nothing.
	 * @throws RedisServerException if they do not catch up within 30 s
	 */
	public synchronized void resume() {
		if (resumed) {
			return;
		}
		resumed = true;
		resumeProcesses();
		if (master.isRunning() && !master.isPaused()) {
			BoundedWait.until(
					"replicas " + ports(replicas) + " reconnected to master " + master.port() + " and caught up",
					TIMEOUT, this::replicasCaughtUp, () -> master.command("INFO", "replication"));
		}
	}

	/** Same as {@link #resume()}. */
	@Override
	public void close() {
		resume();
	}

	@Override
	public String toString() {
		return "ReplicationFreeze[master " + master.port() + ", replicas " + ports(replicas)
				+ (resumed ? ", resumed" : ", frozen") + "]";
	}

	private void resumeProcesses() {
		RuntimeException failure = null;
		for (RedisServer replica : replicas) {
			try {
				replica.resume();
			}
			catch (RuntimeException e) {
				if (failure == null) {
					failure = e;
				}
				else {
					failure.addSuppressed(e);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

	private boolean replicasCaughtUp() {
		long masterOffset = Long
			.parseLong(RedisInfo.field(master.command("INFO", "replication"), "master_repl_offset"));
		for (RedisServer replica : replicas) {
			if (!replica.isRunning()) {
				continue;
			}
			String info = replica.command("INFO", "replication");
			if (!"up".equals(RedisInfo.field(info, "master_link_status"))
					|| Long.parseLong(RedisInfo.field(info, "slave_repl_offset")) < masterOffset) {
				return false;
			}
		}
		return true;
	}

	private static long connectedReplicas(RedisServer master) {
		return Long.parseLong(RedisInfo.field(master.command("INFO", "replication"), "connected_slaves"));
	}

	static String ports(List<RedisServer> servers) {
		return servers.stream().map(server -> Integer.toString(server.port())).toList().toString();
	}

}
