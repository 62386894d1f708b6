package io.github.distlock.core;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.Unknown;

/**
 * Confirms the lease of a lock held by a grant (see {@link HeldLock#granted}), for
 * {@link LockRenewer}. Such a lock has only the store's short grant lease: its lease is
 * confirmed here, not on the caller's path, once a third of what is left of the grant has
 * passed (a hold released before needs no confirmation), by the same owner-checked lease
 * reset: an auto-renewed one by its first renewal, a fixed one by one reset to the fixed
 * lease, retried as a renewal is. Finding the lock gone is a loss, reported as any other.
 */
final class GrantedLeaseConfirmation {

	private final LockStore store;

	private final LockRenewer.Outcomes outcomes;

	private final LockRenewer renewer;

	private final ScheduledThreadPoolExecutor scheduler;

	GrantedLeaseConfirmation(LockStore store, LockRenewer.Outcomes outcomes, LockRenewer renewer,
			ScheduledThreadPoolExecutor scheduler) {
		this.store = store;
		this.outcomes = outcomes;
		this.renewer = renewer;
		this.scheduler = scheduler;
	}

	/** Schedules the confirmation of the lease of {@code held}, held by a grant. */
	void start(HeldLock held) {
		long delay = confirmationDelay(held);
		if (held.autoRenewed) {
			this.renewer.schedule(held, delay, 0);
		}
		else {
			confirmFixedLease(held, delay);
		}
	}

	/**
	 * When to confirm the lease of a lock held by a grant: after a third of what is left
	 * of the grant (at least a quarter of the grant lease is left when a waiter holds by
	 * a grant, see {@link GrantWindow#holdsLongEnough}), not at once. Most holds end
	 * before, and their release cancels it: a confirmation at once cost every hand-over a
	 * command and woke a renewal thread on the 2 cores the new holder's critical section
	 * was starting on. A third leaves two thirds for the reset and its retries.
	 */
	private static long confirmationDelay(HeldLock held) {
		return Math.max(held.remainingNanos(), 0) / 3;
	}

	/**
	 * Schedules {@link #confirmFixedLease(HeldLock)}, registered as the lock's renewal so
	 * that its release cancels it.
	 */
	private void confirmFixedLease(HeldLock held, long delayNanos) {
		if (held.state() == HeldLock.State.HELD && !this.scheduler.isShutdown()) {
			held.renewal(this.scheduler.schedule(() -> confirmFixedLease(held), delayNanos, TimeUnit.NANOSECONDS),
					held.renewalGeneration());
		}
	}

	/**
	 * Resets the lease of a lock with a fixed lease held by a grant to that fixed lease,
	 * counted from when it was granted; retried until the grant lease runs out when the
	 * outcome is unknown. An {@code extend} done before confirms it too.
	 */
	private void confirmFixedLease(HeldLock held) {
		if (held.state() != HeldLock.State.HELD || !held.leaseUnconfirmed()) {
			return;
		}
		if (!held.lockLease()) {
			this.outcomes.lost(held, "the grant lease ran out before the lease was confirmed");
			return;
		}
		long retry;
		try {
			if (held.state() != HeldLock.State.HELD || !held.leaseUnconfirmed()) {
				return;
			}
			long sentAt = System.nanoTime();
			long leaseMillis = Math.max(1,
					TimeUnit.NANOSECONDS.toMillis(held.acquiredAtNanos + held.leaseNanos() - sentAt));
			long leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
			ExtendReply reply;
			try {
				reply = this.store.extend(held.entry.key, held.ownerToken, leaseMillis);
			}
			catch (RuntimeException ex) {
				reply = new Unknown(ex);
			}
			if (reply instanceof Extended) {
				held.leaseResetAt(sentAt, leaseNanos);
				held.renewalFailing = false;
				return;
			}
			if (!(reply instanceof Unknown unknown)) {
				this.outcomes.lost(held, "confirming the lease of the granted lock found the lock key expired or"
						+ " owned by another instance");
				return;
			}
			held.leaseResetMayApply(sentAt, leaseNanos);
			retry = this.renewer.failed(held, unknown.cause());
		}
		finally {
			held.unlockLease();
		}
		if (retry >= 0) {
			confirmFixedLease(held, retry);
		}
	}

}
