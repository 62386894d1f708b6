package io.github.distlock.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotReplicated;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Gets a lock for the calling thread within its wait time. A thread goes straight to the
 * store when nobody of this instance holds or waits for the lock; otherwise it queues as
 * a {@link Waiter} and parks until the local holder hands the lock over, a release is
 * announced, or its bounded, jittered re-check comes. Only the head of the queue competes
 * in the store.
 * <p>
 * An acquire whose outcome is unknown ({@link Unknown}: the store was unreachable or
 * slow) is tried again with the same owner token after a jittered back-off (see
 * {@link UnansweredAcquire}) until the wait time passes; if it passes with the last
 * attempt unanswered, a {@link LockNotAcquiredException} caused by the store's last
 * failure is thrown, also by {@code tryLock} and for a wait time of 0 (empty means held
 * by others, not "nobody could tell"). A token left unanswered is released on the way
 * out.
 * <p>
 * An acquire the store wrote but could not get acknowledged by enough replicas
 * ({@link NotReplicated}) ends the acquisition at once with a
 * {@link LockNotAcquiredException} giving the reason, also for {@code tryLock}: like a
 * store that cannot be reached, it is a failure to report, not a lock held by others to
 * wait for (the store removed the write again). Any other failure of the store (a
 * misconfiguration) is thrown at once.
 * <p>
 * <b>Grants.</b> With a store that grants ({@link LockStore#grantLeaseMillis()} &gt; 0:
 * Redis without replicas waited for, in memory) an acquisition keeps one owner token for
 * all its attempts ({@link QueuedAcquisition}), and the attempts of the local head, when
 * refused with wait time left, also queue it in the store's queue for the lock. The first
 * attempt queues nothing and runs the plain acquire, so an uncontended acquisition costs
 * what it did. A free lock is still taken at once (unfair: no queue is waited behind). A
 * release of the contended lock by any instance then grants it to the head of that queue
 * and announces the grant with its fencing token: the waiting head, woken by the
 * announcement, holds the lock at once, as if handed over locally, counting the grant
 * lease from the earliest moment the grant can have been made ({@link GrantWindow}) until
 * the watchdog confirms its lease off its path, one round trip fewer than waking up to
 * acquire. A grant announced while the head's own attempt is in flight is taken only if
 * that attempt was refused (one that found the grant claimed it, and its reply wins); one
 * whose announcement was lost, or with too little lease left, is claimed by the next
 * attempt. An acquisition that ends without holding under its token (wait time over,
 * interrupt, failure, or handed the lock locally under a fresh token without the store
 * withdrawing the entry) withdraws its queue entry with an owner-checked release, which
 * also passes on a grant it got meanwhile; a thread that dies queued keeps a grant no
 * longer than the grant lease. Hand-overs between local threads go on as before (the
 * queued waiters of other instances do not stop them: {@link LocalHandOver} bounds how
 * many stay local in a row), and withdraw the new holder's queue entry with them.
 */
final class LockAcquirer {

	private static final Log logger = LogFactory.getLog(LockAcquirer.class);

	private final LockStore store;

	private final ReleaseNotifications releases;

	private final OwnerTokens tokens;

	private final LockRenewer renewer;

	private final LockReleaser releaser;

	private final long leaseNanos;

	private final BooleanSupplier stopped;

	private final Runnable notReplicated;

	/** The store's grant lease; 0 when it does not grant, and nobody is queued. */
	private final long grantLeaseNanos;

	LockAcquirer(LockStore store, ReleaseNotifications releases, OwnerTokens tokens, LockRenewer renewer,
			LockReleaser releaser, long leaseNanos, BooleanSupplier stopped, Runnable notReplicated) {
		this.store = store;
		this.releases = releases;
		this.tokens = tokens;
		this.renewer = renewer;
		this.releaser = releaser;
		this.leaseNanos = leaseNanos;
		this.stopped = stopped;
		this.notReplicated = notReplicated;
		this.grantLeaseNanos = TimeUnit.MILLISECONDS.toNanos(store.grantLeaseMillis());
	}

	/**
	 * Acquires the lock of {@code entry} for the calling thread.
	 * @param fixedLeaseNanos a fixed lease, or 0 for an auto-renewed one
	 * @return the hold, or {@code null} if the wait time passed while others held the
	 * lock
	 * @throws LockNotAcquiredException when interrupted, when the service shut down
	 * meanwhile, when too few replicas acknowledged the acquire, or when the wait time
	 * passed while the store did not answer
	 */
	@Nullable HeldLock acquire(LockEntry entry, Duration waitTime, long fixedLeaseNanos) {
		long deadline = System.nanoTime() + saturatedNanos(waitTime);
		UnansweredAcquire unanswered = new UnansweredAcquire(this.tokens);
		QueuedAcquisition queueing = (this.grantLeaseNanos > 0)
				? new QueuedAcquisition(this.tokens.next(), this.grantLeaseNanos) : null;
		HeldLock held = null;
		try {
			held = acquire(entry, waitTime, deadline, fixedLeaseNanos, unanswered, queueing);
			return held;
		}
		finally {
			String heldAs = (held != null) ? held.ownerToken : null;
			String owner = unanswered.settle();
			if (owner != null && !owner.equals(heldAs)) {
				// Its acquire may still be applied (or was): removed again.
				this.releaser.releaseLater(entry.key, owner);
			}
			if (queueing != null && queueing.queued && !queueing.withdrawnByHandOver && !queueing.owner.equals(heldAs)
					&& !queueing.owner.equals(owner)) {
				// Withdrawn from the store's queue, passing on a grant it got meanwhile.
				this.releaser.releaseLater(entry.key, queueing.owner);
			}
		}
	}

	private @Nullable HeldLock acquire(LockEntry entry, Duration waitTime, long deadline, long fixedLeaseNanos,
			UnansweredAcquire unanswered, @Nullable QueuedAcquisition queueing) {
		long holderTtlMillis = -1;
		if (entry.isFree()) {
			Attempt attempt = attempt(entry, fixedLeaseNanos, unanswered, queueing, 0);
			if (attempt.held != null) {
				return attempt.held;
			}
			holderTtlMillis = attempt.holderTtlMillis;
		}
		if (System.nanoTime() - deadline >= 0) {
			unanswered.throwIfPending(entry.lockId, waitTime);
			return null;
		}
		Waiter waiter = new Waiter(Thread.currentThread(), fixedLeaseNanos, queueing);
		if (queueing != null) {
			// Before its first attempt that queues, so that no grant announcement is
			// missed.
			entry.queuedWaiters.add(queueing.owner, waiter);
		}
		entry.waiters.enqueue(waiter);
		boolean interrupted = false;
		try {
			// Subscribed before the next attempt, so a release after that attempt is
			// never missed.
			boolean subscribed = this.releases.ensureActive(entry.key, deadline);
			while (true) {
				if (waiter.state() == Waiter.State.GRANTED) {
					HeldLock granted = waiter.granted();
					if (interrupted) {
						// Interrupted while the lock was handed over: given back and
						// the interrupt reported (tryLock leaves the entry for this
						// thread, releaseOutermost does not).
						granted.dropHolds();
						this.releaser.releaseOutermost(granted, Duration.ZERO);
						throw Interrupts.restoreFlagAndFail(entry.lockId);
					}
					return granted;
				}
				if (queueing != null && !interrupted && !this.stopped.getAsBoolean()) {
					HeldLock byGrant = heldByGrant(entry, waiter, queueing);
					if (byGrant != null) {
						return byGrant;
					}
				}
				// After an unanswered attempt, the next one waits for its back-off.
				long backOff = unanswered.backOffNanos();
				boolean mayCompete = !interrupted && !this.stopped.getAsBoolean() && backOff == 0
						&& entry.waiters.isHead(waiter) && !entry.hasLiveHolder() && !entry.waiters.isHandingOver();
				// After a hand-over freed the lock for waiters of other instances, they
				// go first.
				long holdBack = mayCompete ? entry.turnForOthers.holdBackNanos() : 0;
				if (mayCompete && holdBack == 0 && waiter.transition(Waiter.State.WAITING, Waiter.State.ATTEMPTING)) {
					Attempt attempt;
					try {
						if (entry.turnForOthers.takeHeadStart()) {
							giveOthersAHeadStart(entry);
						}
						attempt = attempt(entry, fixedLeaseNanos, unanswered, queueing, deadline - System.nanoTime());
					}
					catch (Throwable ex) {
						// Straight from ATTEMPTING to CANCELLED: no releaser can
						// pick it for a hand-over while the failure propagates.
						entry.waiters.cancelAttempt(waiter);
						throw ex;
					}
					if (attempt.held != null) {
						// Never WAITING again, so no releaser can pick it for a hand-over
						// meanwhile.
						waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.ACQUIRED);
						entry.waiters.dequeue(waiter);
						return attempt.held;
					}
					waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.WAITING);
					holderTtlMillis = attempt.holderTtlMillis;
				}
				long now = System.nanoTime();
				if (interrupted || this.stopped.getAsBoolean() || now - deadline >= 0) {
					if (entry.waiters.cancel(waiter)) {
						if (interrupted) {
							throw Interrupts.restoreFlagAndFail(entry.lockId);
						}
						if (this.stopped.getAsBoolean()) {
							throw new LockNotAcquiredException(entry.lockId,
									"The LockService shut down while waiting for lock '" + LogSafe.text(entry.lockId)
											+ "'");
						}
						unanswered.throwIfPending(entry.lockId, waitTime);
						return null;
					}
					// A hand-over to this waiter is in flight; its outcome arrives within
					// one round trip.
					waiter.park(TimeUnit.MILLISECONDS.toNanos(10));
					continue;
				}
				// The back-off again: the attempt just made may have gone unanswered.
				backOff = unanswered.backOffNanos();
				long pause = (backOff > 0) ? backOff
						: (holdBack > 0) ? holdBack : Rechecks.delayNanos(holderTtlMillis, subscribed);
				waiter.park(Math.min(deadline - now, pause));
				holderTtlMillis = -1;
				if (Thread.interrupted()) {
					interrupted = true;
				}
				// At every wake-up: a store subscribing per lock learns that this lock
				// is still waited for, and re-subscribes one that moved.
				subscribed = this.releases.ensureActive(entry.key, System.nanoTime());
			}
		}
		catch (Throwable ex) {
			abandon(entry, waiter, ex);
			throw ex;
		}
		finally {
			if (queueing != null) {
				entry.queuedWaiters.remove(queueing.owner);
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Holds the lock by the grant announced to the acquisition's owner token since the
	 * last look, if any, if its conservative deadline leaves room to confirm its lease,
	 * and unless a local hand-over to this waiter is in flight (its outcome decides);
	 * otherwise the next attempt claims the grant.
	 */
	private @Nullable HeldLock heldByGrant(LockEntry entry, Waiter waiter, QueuedAcquisition queueing) {
		long fencingToken = waiter.takeAnnouncedGrant();
		if (fencingToken == 0) {
			return null;
		}
		long lease = (waiter.fixedLeaseNanos > 0) ? waiter.fixedLeaseNanos : this.leaseNanos;
		long now = System.nanoTime();
		if (!queueing.grants.holdsLongEnough(lease, now)
				|| !waiter.transition(Waiter.State.WAITING, Waiter.State.ACQUIRED)) {
			return null;
		}
		entry.waiters.dequeue(waiter);
		HeldLock held = HeldLock.granted(entry, queueing.owner, fencingToken, waiter.thread, lease,
				waiter.fixedLeaseNanos == 0, now, queueing.grants.deadlineNanos(lease, now));
		this.releaser.holdAcquired(held);
		if (logger.isDebugEnabled()) {
			logger
				.debug("Acquired lock '" + LogSafe.text(entry.lockId) + "' by a grant, fencing token " + fencingToken);
		}
		return held;
	}

	/**
	 * A waiter leaves with an exception or error: it leaves the queue (the next one moves
	 * up), and a lock handed to it meanwhile is released again, so nothing is granted to
	 * a thread that left.
	 */
	private void abandon(LockEntry entry, Waiter waiter, Throwable failure) {
		boolean interrupted = Thread.interrupted();
		try {
			while (!entry.waiters.cancel(waiter) && !entry.waiters.cancelAttempt(waiter)) {
				Waiter.State state = waiter.state();
				if (state == Waiter.State.GRANTED) {
					HeldLock granted = waiter.granted();
					if (granted != null && entry.isUnreleased(granted)) {
						granted.dropHolds();
						try {
							this.releaser.releaseOutermost(granted, Duration.ZERO);
						}
						catch (RuntimeException ex) {
							failure.addSuppressed(ex);
						}
					}
					return;
				}
				if (state != Waiter.State.GRANTING) {
					// Cancelled already, or acquired and then failed: nothing is queued
					// or held for it.
					return;
				}
				// A hand-over to this waiter is in flight; its outcome arrives within one
				// round trip.
				waiter.park(TimeUnit.MILLISECONDS.toNanos(10));
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * The lock was just freed for waiters of other instances, and its announcement has
	 * reached this instance as it reached them: the local head waits one more round trip
	 * (asking how long the lease runs, which it does not need) before it competes, so
	 * that their acquire, sent on the same announcement, normally arrives first.
	 */
	private void giveOthersAHeadStart(LockEntry entry) {
		try {
			this.store.remainingLeaseMillis(entry.key);
		}
		catch (RuntimeException ex) {
			// Only a head start: the attempt that follows reports what is wrong.
		}
	}

	/**
	 * One acquire round trip. An acquire whose reply arrives after the lease would
	 * already have run out counts as not acquired and is undone.
	 * @param queueing the acquisition when it may queue in the store, or {@code null}
	 * @param waitNanos how long it may queue (0 for the first attempt, which does not)
	 */
	private Attempt attempt(LockEntry entry, long fixedLeaseNanos, UnansweredAcquire unanswered,
			@Nullable QueuedAcquisition queueing, long waitNanos) {
		long lease = (fixedLeaseNanos > 0) ? fixedLeaseNanos : this.leaseNanos;
		String owner = (queueing != null) ? queueing.owner : unanswered.nextOwner();
		long waitMillis = (queueing != null && waitNanos > 0) ? LockReleaser.toMillis(waitNanos) : 0;
		if (queueing != null && waitMillis > 0) {
			queueing.queued = true;
			queueing.withdrawnByHandOver = false;
		}
		long sentAt = System.nanoTime();
		AcquireReply reply;
		try {
			reply = (queueing != null) ? this.store.acquire(entry.key, owner, LockReleaser.toMillis(lease), waitMillis)
					: this.store.acquire(entry.key, owner, LockReleaser.toMillis(lease));
		}
		catch (RuntimeException ex) {
			// The command may still be applied after we gave up: removed on the way out.
			unanswered.unanswered(owner, sentAt, ex);
			throw Interrupts.interruptOr(entry.lockId, ex);
		}
		catch (Error ex) {
			unanswered.unanswered(owner, sentAt, ex);
			throw ex;
		}
		if (reply instanceof Unknown unknown) {
			unanswered.unanswered(owner, sentAt, unknown.cause());
			if (Thread.currentThread().isInterrupted() || Interrupts.isCause(unknown.cause())) {
				throw Interrupts.interruptOr(entry.lockId, unknown.cause());
			}
			return new Attempt(null, -1);
		}
		long leaseStart = unanswered.leaseStart(owner, sentAt);
		String settled = unanswered.settle();
		if (reply instanceof HeldByOther other) {
			if (queueing != null) {
				queueing.grants.refused(sentAt, System.nanoTime());
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
		if (System.nanoTime() - leaseStart >= lease) {
			if (queueing != null) {
				// Its next attempt sends the same token: released before it.
				this.releaser.releaseQuietly(entry.key, owner);
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
			logger.debug("Acquired lock '" + LogSafe.text(entry.lockId) + "', fencing token " + fencingToken);
		}
		return new Attempt(held, -1);
	}

	/**
	 * The failure of an acquire or hand-over that too few replicas acknowledged.
	 */
	static LockNotAcquiredException notReplicated(String lockId, NotReplicated reply) {
		return new LockNotAcquiredException(lockId, "Lock '" + LogSafe.text(lockId)
				+ "' was not acquired: the write was not replicated, " + reply.reason() + "; it was released again");
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return Math.min(duration.toNanos(), Long.MAX_VALUE / 4);
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 4;
		}
	}

	private record Attempt(@Nullable HeldLock held, long holderTtlMillis) {
	}

}
