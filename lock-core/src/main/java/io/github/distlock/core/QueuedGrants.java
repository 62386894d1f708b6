package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.store.LockStore;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Grants to acquisitions of the default mode, for {@link LockAcquirer}: with a store that
 * grants ({@link LockStore#grantLeaseMillis()} &gt; 0: Redis without replicas waited for,
 * in memory) an acquisition keeps one owner token for all its attempts
 * ({@link QueuedAcquisition}), and the attempts of the local head, when refused with wait
 * time left, also queue it in the store's queue for the lock. The first attempt queues
 * nothing and runs the plain acquire, so an uncontended acquisition costs what it did. A
 * free lock is still taken at once (unfair: no queue is waited behind). A release of the
 * contended lock by any instance then grants it to the head of that queue and announces
 * the grant with its fencing token: the waiting head, woken by the announcement, holds
 * the lock at once, as if handed over locally, one round trip fewer than waking up to
 * acquire. The grant carries the lease the waiter asked for (its queue entry records it),
 * counted from the earliest moment the grant can have been made ({@link GrantWindow}): a
 * lock held by a grant is renewed like any other. A grant announced while the head's own
 * attempt is in flight is taken only if that attempt was refused (one that found the
 * grant claimed it, and its reply wins); one whose announcement was lost, or with too
 * little lease left, is claimed by the next attempt. An acquisition that ends without
 * holding under its token (wait time over, interrupt, failure, or handed the lock locally
 * under a fresh token without the store withdrawing the entry) withdraws its queue entry
 * with an owner-checked release, which also passes on a grant it got meanwhile, and makes
 * the store refuse a late copy of any of its attempts; so does one that ends after an
 * attempt went unanswered, whatever else withdrew its entry. A thread that dies queued
 * can be granted the lock until its entry's wait time ends, and then keeps it for its
 * lease, as a holder that dies does. Hand-overs between local threads go on as before
 * (the queued waiters of other instances do not stop them: {@link LocalHandOver} bounds
 * how many stay local in a row), and withdraw the new holder's queue entry with them.
 */
final class QueuedGrants {

	private static final Log logger = LogFactory.getLog(QueuedGrants.class);

	private final EngineRuntime runtime;

	private final LockReleaser releaser;

	private final long leaseNanos;

	/** The store's grant lease; 0 when it does not grant, and nobody is queued. */
	private final boolean grants;

	QueuedGrants(LockStore store, EngineRuntime runtime, LockReleaser releaser, long leaseNanos) {
		this.runtime = runtime;
		this.releaser = releaser;
		this.leaseNanos = leaseNanos;
		this.grants = store.grantLeaseMillis() > 0;
	}

	/**
	 * A new acquisition's owner token and queue bookkeeping.
	 * @param fixedLeaseNanos its fixed lease, or 0 for an auto-renewed one
	 * @return the acquisition, or {@code null} when the store does not grant (nobody is
	 * queued)
	 */
	@Nullable QueuedAcquisition start(long fixedLeaseNanos) {
		long lease = (fixedLeaseNanos > 0) ? fixedLeaseNanos : this.leaseNanos;
		return this.grants ? new QueuedAcquisition(this.runtime.newOwnerToken(), lease) : null;
	}

	/**
	 * Holds the lock by the grant announced to the acquisition's owner token since the
	 * last look, if any, if its conservative deadline leaves room to confirm its lease,
	 * and unless a local hand-over to this waiter is in flight (its outcome decides);
	 * otherwise the next attempt claims the grant.
	 */
	@Nullable HeldLock heldByGrant(LockEntry entry, Waiter waiter, QueuedAcquisition queueing) {
		long fencingToken = waiter.takeAnnouncedGrant();
		if (fencingToken == 0 || queueing.isSpent()) {
			// A grant to a spent token, announced late: the store no longer has it.
			return null;
		}
		long lease = (waiter.fixedLeaseNanos > 0) ? waiter.fixedLeaseNanos : this.leaseNanos;
		long now = this.runtime.nanoTime();
		if (!queueing.grants.holdsLongEnough(now) || !waiter.transition(Waiter.State.WAITING, Waiter.State.ACQUIRED)) {
			return null;
		}
		entry.waiters.dequeue(waiter);
		HeldLock held = HeldLock.granted(entry, queueing.owner, fencingToken, waiter.thread, lease,
				waiter.fixedLeaseNanos == 0, now, queueing.grants.deadlineNanos(now));
		this.releaser.holdAcquired(held);
		if (logger.isDebugEnabled()) {
			logger
				.debug("Acquired lock '" + LogSafe.text(entry.lockId) + "' by a grant, fencing token " + fencingToken);
		}
		return held;
	}

	/**
	 * The acquisition ended: its queue entry, if an attempt may have made one, is
	 * withdrawn from the store's queue before the acquisition returns (passing on a grant
	 * it got meanwhile; a release right after the return found the entry and granted the
	 * lock to nobody), unless the lock is held under its owner token, a hand-over
	 * withdrew it, or the token is released anyway as an unanswered attempt's. After an
	 * unanswered attempt it is withdrawn also when a hand-over withdrew the entry: a copy
	 * of that attempt may still be applied, and the withdrawal makes the store refuse it.
	 * Not when its token was {@linkplain QueuedAcquisition#spent spent}: released then.
	 * @param heldAs the owner token the lock is held under, or {@code null}
	 * @param unansweredOwner the owner token of an unanswered attempt released on the way
	 * out, or {@code null}
	 */
	void ended(LockEntry entry, QueuedAcquisition queueing, @Nullable String heldAs, @Nullable String unansweredOwner) {
		boolean mayBeQueued = !queueing.isSpent()
				&& ((queueing.queued && !queueing.withdrawnByHandOver) || queueing.hadUnanswered);
		if (mayBeQueued && !queueing.owner.equals(heldAs) && !queueing.owner.equals(unansweredOwner)) {
			this.releaser.releaseAndWait(entry.key, queueing.owner);
		}
	}

}
