package io.github.distlock.redis;

import java.util.Collections;
import java.util.List;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.NotReplicated;
import io.github.distlock.store.Unknown;

import org.springframework.dao.TransientDataAccessResourceException;

/**
 * The operations of {@link RedisLockStore} that wait for replicas ({@code min-replicas}),
 * and what the store answers after a {@linkplain ReplicaAcknowledgedWrites
 * replica-acknowledged write}: it counts if enough replicas acknowledged it; otherwise
 * the store answers {@link NotReplicated} to an acquire or hand-over, after removing the
 * new owner's write (owner-checked), so that no lock stands that a failover could lose,
 * and {@link Unknown} to a lease reset.
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

	/** {@link RedisLockStore#acquire(String, String, long)}, acknowledged by replicas. */
	AcquireReply acquire(String key, String owner, long leaseMillis) {
		try {
			ReplicaAcknowledgedWrites.Written written = this.commands.acquire(this.writes, key, owner, leaseMillis);
			if (!replicatedEnough(written)) {
				return withdraw(key, owner, written);
			}
			return ScriptReplies.acquireReply(written.reply());
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	/**
	 * {@link RedisLockStore#handOver(String, String, String, long, boolean)},
	 * acknowledged by replicas.
	 */
	HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		try {
			ReplicaAcknowledgedWrites.Written written = this.commands.handOver(this.writes, key, owner, newOwner,
					leaseMillis, mayStayLocal);
			if (!replicatedEnough(written)) {
				return withdraw(key, newOwner, written);
			}
			return ScriptReplies.handOverReply(written.reply());
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	/**
	 * {@link RedisLockStore#extendAll} of one script's locks with replicated renewals:
	 * one {@code WAIT} for them all; when too few replicas acknowledged it, each renewed
	 * lock answers {@link Unknown}.
	 */
	List<ExtendReply> extendAll(List<LeaseReset> resets) {
		try {
			ReplicaAcknowledgedWrites.Written written = this.writes.write(this.commands.expireCall(resets),
					(reply) -> reply != 0);
			List<ExtendReply> replies = RedisLeaseRenewals.replies(written.reply(), resets.size());
			if (replicatedEnough(written)) {
				return replies;
			}
			Unknown unknown = new Unknown(new TransientDataAccessResourceException(
					"The lease reset was not replicated: " + notReplicated(written).reason()));
			return replies.stream().map((reply) -> (reply instanceof Extended) ? unknown : reply).toList();
		}
		catch (RuntimeException ex) {
			return Collections.nCopies(resets.size(), ScriptReplies.unknownOrThrow(ex));
		}
	}

	/** Whether enough replicas acknowledged {@code written}. */
	private boolean replicatedEnough(ReplicaAcknowledgedWrites.Written written) {
		// -1: the script wrote no new owner, so nothing had to be acknowledged.
		return written.acknowledged() < 0 || written.acknowledged() >= this.writes.minReplicas();
	}

	/**
	 * Why {@code written} does not count: how many replicas acknowledged it, of how many.
	 */
	private NotReplicated notReplicated(ReplicaAcknowledgedWrites.Written written) {
		return new NotReplicated(written.acknowledged(), this.writes.minReplicas(), this.writes.timeout());
	}

	/**
	 * Removes a write of {@code owner} too few replicas acknowledged, owner-checked,
	 * before answering; when that fails too, the lock expires with its lease.
	 * @throws RuntimeException a failure of the removal whose outcome is known (not a
	 * connection or timeout failure)
	 */
	private NotReplicated withdraw(String key, String owner, ReplicaAcknowledgedWrites.Written written) {
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
