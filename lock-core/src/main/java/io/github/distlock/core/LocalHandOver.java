package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.NotReplicated;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Hands a lock its holder let go to the next waiting thread of this instance, in one
 * round trip and without freeing it in the store, unless it is wanted elsewhere and
 * stayed local long enough: then the store releases it instead (and grants it to the head
 * of its queue, if a waiter is queued there), and the local waiters give the other
 * instances their turn ({@link TurnForOthers}: behind the waiter it was granted to, or,
 * with a store that does not grant, holding back until the release was announced). A
 * waiter queued in the store is withdrawn from its queue by the hand-over itself. Never
 * used for fair locks.
 */
final class LocalHandOver {

	/**
	 * Local hand-overs allowed in a row while a waiter of another instance is known to
	 * wait; then the lock is freed so that it gets its turn ({@link TurnForOthers}: the
	 * local waiters let it go first, and win the lock back for one critical section at a
	 * time should it be too slow). Bounds cross-instance unfairness to a few critical
	 * sections.
	 */
	private static final int MAX_HAND_OVERS_WHILE_CONTENDED = 8;

	private static final Log logger = LogFactory.getLog(LocalHandOver.class);

	private final LockReleaser releaser;

	private final LockStore store;

	private final EngineRuntime runtime;

	private final LockLosses losses;

	private final long leaseNanos;

	private final Runnable notReplicated;

	/**
	 * Whether the store grants ({@link LockStore#grantLeaseMillis()} &gt; 0): a hand-over
	 * that frees the lock then gives it to the head of the store's queue.
	 */
	private final boolean grants;

	LocalHandOver(LockReleaser releaser, LockStore store, EngineRuntime runtime, LockLosses losses, long leaseNanos,
			Runnable notReplicated) {
		this.releaser = releaser;
		this.store = store;
		this.runtime = runtime;
		this.losses = losses;
		this.leaseNanos = leaseNanos;
		this.notReplicated = notReplicated;
		this.grants = store.grantLeaseMillis() > 0;
	}

	/**
	 * Hands the lock to a waiter of this instance in one round trip, without freeing it
	 * in the store.
	 */
	void handOver(HeldLock held, Waiter next) {
		LockEntry entry = held.entry;
		long lease = (next.fixedLeaseNanos > 0) ? next.fixedLeaseNanos : this.leaseNanos;
		String newOwner = this.runtime.newOwnerToken();
		boolean mayStayLocal = entry.handOversSinceStoreAcquire() < MAX_HAND_OVERS_WHILE_CONTENDED
				&& !entry.turnForOthers.isOwed();
		long announcementsBefore = this.grants ? -1 : entry.turnForOthers.announcements();
		QueuedAcquisition queued = next.queued;
		String queuedAs = (queued != null) ? queued.owner : null;
		long sentAt = this.runtime.nanoTime();
		HandOverReply reply;
		try {
			reply = this.releaser.despiteInterrupts(() -> this.store.handOver(entry.key, held.ownerToken, newOwner,
					LockReleaser.toMillis(lease), mayStayLocal, queuedAs), () -> {
						// The interrupted hand-over may or may not have been applied:
						// free the lock either way,
						// as if released instead; the waiter then competes for it.
						ReleaseReply successor = this.store.release(entry.key, newOwner);
						if (successor instanceof Unknown unknown) {
							return unknown;
						}
						ReleaseReply own = this.store.release(entry.key, held.ownerToken);
						return (own instanceof Unknown unknown) ? unknown : Released.INSTANCE;
					});
		}
		catch (RuntimeException | Error ex) {
			handOverFailed(held, next, newOwner);
			throw ex;
		}
		if (reply instanceof Acquired && queued != null) {
			// Its queue entry went with the hand-over, also when the lease ran out.
			queued.withdrawnByHandOver = true;
		}
		if (reply instanceof Acquired acquired && this.runtime.nanoTime() - sentAt < lease) {
			HeldLock successor = new HeldLock(entry, newOwner, acquired.fencingToken(), next.thread, lease,
					next.fixedLeaseNanos == 0, sentAt);
			entry.handedOver(successor);
			boolean started;
			try {
				started = this.releaser.startHolding(successor);
			}
			catch (RuntimeException ex) {
				entry.holderGone(held);
				entry.waiters.handOverFailed(next);
				throw ex;
			}
			if (!started) {
				// Undone: the service shut down. The waiter sees that and gives up.
				entry.holderGone(held);
				entry.waiters.handOverFailed(next);
				return;
			}
			next.grant(successor);
			if (logger.isDebugEnabled()) {
				logger.debug("Released lock '" + LogSafe.text(entry.lockId) + "' to a waiting thread of this instance");
			}
			return;
		}
		if (reply instanceof Unknown unknown) {
			handOverFailed(held, next, newOwner);
			LockReleaser.expiresWithItsLease(entry, unknown);
			return;
		}
		if (reply instanceof Acquired) {
			// Handed over only after the new lease had run out.
			this.releaser.releaseLater(entry.key, newOwner);
		}
		else if (reply instanceof Released && this.grants) {
			// Granted to the head of the store's queue, the waiter elsewhere that asked
			// for it (nobody queued there: freed, and any local waiter may take it):
			// the local waiters queue behind it.
			entry.turnForOthers.grantedElsewhere();
		}
		else if (reply instanceof Released) {
			// Freed for waiters of other instances: the local waiters hold back (before
			// they are woken below).
			entry.turnForOthers.freed(announcementsBefore);
		}
		else if (reply instanceof NotReplicated notReplicated) {
			// The store freed the lock: the waiter competes for it, and its own acquire
			// waits for the replicas again (failing with the reason if they still do not
			// answer).
			this.notReplicated.run();
			if (logger.isDebugEnabled()) {
				logger.debug("Handed lock '" + LogSafe.text(entry.lockId) + "' over, but " + notReplicated.reason()
						+ "; released it, the waiting thread competes again");
			}
		}
		// The waiter goes back to the front before the holder is gone, so that no other
		// waiter becomes head meanwhile and competes too.
		entry.waiters.handOverFailed(next);
		entry.holderGone(held);
		if (reply instanceof NotOwned) {
			throw this.losses.lostAtRelease(held, LockLosses.AT_RELEASE);
		}
	}

	/**
	 * The successor did not get the lock: its owner token is cleaned up, the waiter
	 * competes.
	 */
	private void handOverFailed(HeldLock held, Waiter next, String newOwner) {
		this.releaser.releaseLater(held.entry.key, newOwner);
		held.entry.holderGone(held);
		held.entry.waiters.handOverFailed(next);
	}

}
