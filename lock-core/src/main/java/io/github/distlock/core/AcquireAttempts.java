package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotReplicated;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One acquire round trip of the default mode for {@link LockAcquirer}, and what its reply
 * makes of the lock: held (the entry's holder, being renewed), held by another owner
 * (with how long its lease still runs), unanswered (tried again by the acquirer, see
 * {@link UnansweredAcquire}), or failed. An acquire whose reply arrives after its lease
 * would already have run out counts as not acquired and is undone.
 */
final class AcquireAttempts {

	private static final Log logger = LogFactory.getLog(AcquireAttempts.class);

	private final LockStore store;

	private final LockReleaser releaser;

	private final long leaseNanos;

	private final Runnable notReplicated;

	private final EngineRuntime runtime;

	AcquireAttempts(LockStore store, LockReleaser releaser, long leaseNanos, Runnable notReplicated,
			EngineRuntime runtime) {
		this.store = store;
		this.runtime = runtime;
		this.releaser = releaser;
		this.leaseNanos = leaseNanos;
		this.notReplicated = notReplicated;
	}

	/**
	 * One acquire round trip. An acquire whose reply arrives after the lease would
	 * already have run out counts as not acquired and is undone.
	 * @param queueing the acquisition when it may queue in the store, or {@code null}
	 * @param waitNanos how long it may queue (0 for the first attempt, which does not)
	 */
	Attempt attempt(LockEntry entry, long fixedLeaseNanos, UnansweredAcquire unanswered,
			@Nullable QueuedAcquisition queued, long waitNanos) {
		QueuedAcquisition queueing = (queued != null && !queued.isSpent()) ? queued : null;
		long lease = (fixedLeaseNanos > 0) ? fixedLeaseNanos : this.leaseNanos;
		String owner = (queueing != null) ? queueing.owner : unanswered.nextOwner();
		long waitMillis = (queueing != null && waitNanos > 0) ? LockReleaser.toMillis(waitNanos) : 0;
		if (queueing != null && waitMillis > 0) {
			queueing.queued = true;
			queueing.withdrawnByHandOver = false;
		}
		long sentAt = this.runtime.nanoTime();
		AcquireReply reply;
		try {
			reply = (queueing != null) ? this.store.acquire(entry.key, owner, LockReleaser.toMillis(lease), waitMillis)
					: this.store.acquire(entry.key, owner, LockReleaser.toMillis(lease));
		}
		catch (RuntimeException ex) {
			// The command may still be applied after we gave up: removed on the way out.
			unanswered(owner, sentAt, ex, unanswered, queueing);
			throw Interrupts.interruptOr(entry.lockId, ex);
		}
		catch (Error ex) {
			unanswered(owner, sentAt, ex, unanswered, queueing);
			throw ex;
		}
		if (reply instanceof Unknown unknown) {
			unanswered(owner, sentAt, unknown.cause(), unanswered, queueing);
			if (Thread.currentThread().isInterrupted() || Interrupts.isCause(unknown.cause())) {
				throw Interrupts.interruptOr(entry.lockId, unknown.cause());
			}
			return new Attempt(null, -1);
		}
		// A repeated token's acquire resets the lease it finds (the store's contract), so
		// the lease starts no earlier than this attempt, whenever the first one landed.
		long leaseStart = sentAt;
		String settled = unanswered.settle();
		if (reply instanceof HeldByOther other) {
			if (queueing != null) {
				queueing.grants.refused(sentAt, this.runtime.nanoTime());
			}
			else if (settled != null) {
				// Its earlier write, if still in flight on another connection, must not
				// outlive this waiter. (One token for all attempts instead: such a write
				// makes the lock this acquisition's, claimed by its next attempt or
				// withdrawn when it ends.)
				this.releaser.releaseLater(entry.key, settled);
			}
			if (!entry.hasLiveHolder()) {
				// Not by a thread of this instance.
				entry.turnForOthers.heldElsewhere();
			}
			return new Attempt(null, other.remainingLeaseMillis());
		}
		if (reply instanceof NotReplicated notReplicated) {
			this.notReplicated.run();
			throw notReplicated(entry.lockId, notReplicated);
		}
		long fencingToken = ((Acquired) reply).fencingToken();
		if (this.runtime.nanoTime() - leaseStart >= lease) {
			if (queueing != null) {
				// Released at once, withdrawing its queue entry: the token is spent.
				this.releaser.releaseQuietly(entry.key, owner);
				queueing.spend();
			}
			else {
				this.releaser.releaseLater(entry.key, owner);
			}
			if (logger.isDebugEnabled()) {
				logger.debug(
						"Acquired lock '" + LogSafe.text(entry.lockId) + "' only after its lease had run out; undone");
			}
			return new Attempt(null, 0);
		}
		HeldLock held = new HeldLock(entry, owner, fencingToken, Thread.currentThread(), lease, fixedLeaseNanos == 0,
				leaseStart);
		this.releaser.holdAcquired(held);
		if (logger.isDebugEnabled()) {
			logger.debug("Acquired lock '" + LogSafe.text(entry.lockId) + "', fencing token "
					+ ((fencingToken != Acquired.TOKEN_ON_READ) ? fencingToken : "on read"));
		}
		return new Attempt(held, -1);
	}

	private static void unanswered(String owner, long sentAt, Throwable failure, UnansweredAcquire unanswered,
			@Nullable QueuedAcquisition queueing) {
		unanswered.unanswered(owner, failure);
		if (queueing != null) {
			queueing.hadUnanswered = true;
			queueing.grants.unanswered(sentAt);
		}
	}

	/**
	 * The failure of an acquire or hand-over that too few replicas acknowledged.
	 */
	static LockNotAcquiredException notReplicated(String lockId, NotReplicated reply) {
		return new LockNotAcquiredException(lockId, "Lock '" + LogSafe.text(lockId)
				+ "' was not acquired: the write was not replicated, " + reply.reason() + "; it was released again");
	}

	/**
	 * What one attempt came to.
	 *
	 * @param held the hold, if the lock was acquired
	 * @param holderTtlMillis how long the holder's lease still runs, 0 if it ran out, or
	 * -1 if not known
	 */
	record Attempt(@Nullable HeldLock held, long holderTtlMillis) {
	}

}
