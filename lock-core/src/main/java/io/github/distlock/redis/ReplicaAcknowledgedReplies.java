package io.github.distlock.redis;

import io.github.distlock.store.NotReplicated;

/**
 * What {@link RedisLockStore} makes of a {@linkplain ReplicaAcknowledgedWrites
 * replica-acknowledged write}: it counts if enough replicas acknowledged it; otherwise
 * the store answers {@link NotReplicated}, after removing a new owner's write
 * (owner-checked), so that no lock stands that a failover could lose.
 */
final class ReplicaAcknowledgedReplies {

	private final ReplicaAcknowledgedWrites writes;

	private final RedisLockCommands commands;

	ReplicaAcknowledgedReplies(ReplicaAcknowledgedWrites writes, RedisLockCommands commands) {
		this.writes = writes;
		this.commands = commands;
	}

	/** The writes that wait for the replicas. */
	ReplicaAcknowledgedWrites writes() {
		return this.writes;
	}

	/** Whether enough replicas acknowledged {@code written}. */
	boolean replicatedEnough(ReplicaAcknowledgedWrites.Written written) {
		// -1: the script wrote no new owner, so nothing had to be acknowledged.
		return written.acknowledged() < 0 || written.acknowledged() >= this.writes.minReplicas();
	}

	/**
	 * Why {@code written} does not count: how many replicas acknowledged it, of how many.
	 */
	NotReplicated notReplicated(ReplicaAcknowledgedWrites.Written written) {
		return new NotReplicated(written.acknowledged(), this.writes.minReplicas(), this.writes.timeout());
	}

	/**
	 * Removes a write of {@code owner} too few replicas acknowledged, owner-checked,
	 * before answering; when that fails too, the lock expires with its lease.
	 * @throws RuntimeException a failure of the removal whose outcome is known (not a
	 * connection or timeout failure)
	 */
	NotReplicated withdraw(String key, String owner, ReplicaAcknowledgedWrites.Written written) {
		try {
			this.commands.release(key, owner);
		}
		catch (RuntimeException ex) {
			if (!RedisFailures.outcomeUnknown(ex)) {
				throw ex;
			}
		}
		return notReplicated(written);
	}

}
