package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Gets a lock for the calling thread first come, first served across all instances (fair
 * mode, {@link LockStore#acquireFair}).
 * <p>
 * Every acquisition keeps one owner token for all its attempts. Refused, it is queued in
 * the store for its remaining wait time, behind every earlier fair waiter of any
 * instance; nobody acquiring fairly can pass it. The release of the holder grants the
 * lock to the head of that queue (the store sets it as owner with the lease its queue
 * entry records, the one asked for, gives it the next fencing token and announces both to
 * the owner token). The granted thread, woken by the announcement, holds the lock at once
 * with that token, without a round trip: its local deadline is that lease counted from
 * the earliest moment the grant can have been made ({@link GrantWindow}), and the
 * watchdog renews it like any other. A grant announced while the thread's own attempt is
 * in flight is taken only if that attempt is refused (an attempt that found the grant
 * claimed it: its reply wins). A grant whose conservative deadline is too close, and one
 * whose announcement was lost (found by the fallback re-check), is claimed as before, by
 * the next attempt, which sets its real lease and gives it a still greater token. A
 * thread that gives up (wait time over, interrupt, shutdown) withdraws from the queue
 * with an owner-checked release, which also passes on a lock granted to it meanwhile, and
 * makes the store refuse a late copy of any of its attempts; one that dies while queued
 * keeps its queue entry no longer than its wait time, and a grant made to it meanwhile
 * for its lease, as a holder that dies does.
 * <p>
 * An attempt the store does not answer ({@link Unknown}) is tried again with the same
 * token after a back-off ({@link UnansweredAcquire}) until the wait time ends; then the
 * acquisition withdraws and fails with a {@link LockNotAcquiredException} caused by the
 * store's last failure, as in the default mode.
 * <p>
 * Unlike the default mode there is no local queue and no local hand-over: a local thread
 * would pass waiters of other instances. Each waiting thread sends its own attempts.
 */
final class FairAcquirer {

	private static final Log logger = LogFactory.getLog(FairAcquirer.class);

	/**
	 * Fallback re-check while grants are announced, in case an announcement is lost: the
	 * grant is then claimed by the next attempt (or, if its lease ran out first, the lock
	 * is found free).
	 */
	private static final long SUBSCRIBED_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Re-check when no announcements can be received. */
	private static final long UNSUBSCRIBED_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private final LockStore store;

	private final ReleaseNotifications releases;

	private final EngineRuntime runtime;

	private final LockReleaser releaser;

	private final long leaseNanos;

	private final boolean grants;

	private final BooleanSupplier stopped;

	FairAcquirer(LockStore store, ReleaseNotifications releases, EngineRuntime runtime, LockReleaser releaser,
			long leaseNanos, BooleanSupplier stopped) {
		this.store = store;
		this.grants = store.grantLeaseMillis() > 0;
		this.releases = releases;
		this.runtime = runtime;
		this.releaser = releaser;
		this.leaseNanos = leaseNanos;
		this.stopped = stopped;
	}

	/**
	 * Acquires the lock of {@code entry} for the calling thread, in arrival order.
	 * @param fixedLeaseNanos a fixed lease, or 0 for an auto-renewed one
	 * @return the hold, or {@code null} if the wait time passed
	 * @throws LockNotAcquiredException when interrupted or when the service shut down
	 * meanwhile
	 */
	@Nullable HeldLock acquire(LockEntry entry, Duration waitTime, long fixedLeaseNanos) {
		long deadline = this.runtime.nanoTime() + LockArguments.waitNanos(waitTime);
		long lease = (fixedLeaseNanos > 0) ? fixedLeaseNanos : this.leaseNanos;
		String owner = this.runtime.newOwnerToken();
		Waiter waiter = new Waiter(Thread.currentThread(), fixedLeaseNanos, this.runtime);
		GrantWindow grants = new GrantWindow(this.grants ? lease : 0);
		// Before the first attempt, so that no grant announcement is missed.
		entry.queuedWaiters.add(owner, waiter);
		boolean subscribed = false;
		boolean queued = false;
		UnansweredAcquire unanswered = new UnansweredAcquire(this.runtime);
		try {
			while (true) {
				if (this.stopped.getAsBoolean()) {
					if (queued) {
						this.releaser.releaseQuietly(entry.key, owner);
					}
					throw new LockNotAcquiredException(entry.lockId,
							"The LockService shut down while waiting for lock '" + LogSafe.text(entry.lockId) + "'");
				}
				long remaining = deadline - this.runtime.nanoTime();
				long sentAt = this.runtime.nanoTime();
				AcquireReply reply = attempt(entry, owner, lease, (remaining > 0) ? remaining : 0);
				queued |= remaining > 0;
				if (reply instanceof Unknown unknown) {
					// Maybe applied (queued, or granted): tried again with the same token
					// after a back-off, until the wait time ends.
					unanswered.unanswered(owner, unknown.cause());
					grants.unanswered(sentAt);
					if (remaining <= 0) {
						this.releaser.releaseLater(entry.key, owner);
						unanswered.throwIfPending(entry.lockId, waitTime);
					}
					waiter.park(Math.min(deadline - this.runtime.nanoTime(), unanswered.backOffNanos()));
					if (Thread.interrupted()) {
						this.releaser.releaseAndWait(entry.key, owner);
						throw Interrupts.restoreFlagAndFail(entry.lockId);
					}
					continue;
				}
				unanswered.settle();
				if (reply instanceof Acquired acquired) {
					return holding(entry, owner, acquired.fencingToken(), lease, fixedLeaseNanos, sentAt);
				}
				grants.refused(sentAt, this.runtime.nanoTime());
				// Granted while the refused attempt was in flight.
				HeldLock granted = heldByGrant(entry, owner, waiter, grants, lease, fixedLeaseNanos);
				if (granted != null) {
					return granted;
				}
				if (remaining <= 0) {
					// Not queued by this attempt (no wait left), but a queue entry of an
					// earlier one may live on, or the lock may have been granted to it
					// meanwhile: withdrawn, and passed on.
					if (queued) {
						this.releaser.releaseQuietly(entry.key, owner);
					}
					return null;
				}
				if (!subscribed) {
					// Subscribed after the first refusal and before the next attempt, so
					// a grant announced in between is found by that attempt.
					subscribed = this.releases.ensureActive(entry.key, deadline);
					if (subscribed) {
						continue;
					}
				}
				long holderTtlMillis = ((HeldByOther) reply).remainingLeaseMillis();
				waiter.park(Math.min(deadline - this.runtime.nanoTime(), recheckNanos(holderTtlMillis, subscribed)));
				if (Thread.interrupted()) {
					// Also hands on a grant it got meanwhile; done before the exception,
					// so that no release grants the lock to the entry afterwards.
					this.releaser.releaseAndWait(entry.key, owner);
					throw Interrupts.restoreFlagAndFail(entry.lockId);
				}
				granted = heldByGrant(entry, owner, waiter, grants, lease, fixedLeaseNanos);
				if (granted != null) {
					return granted;
				}
				if (deadline - this.runtime.nanoTime() <= 0) {
					// One last attempt, without queueing: a grant may have come.
					continue;
				}
				subscribed = this.releases.ensureActive(entry.key, this.runtime.nanoTime());
			}
		}
		finally {
			entry.queuedWaiters.remove(owner);
		}
	}

	private AcquireReply attempt(LockEntry entry, String owner, long lease, long remainingNanos) {
		AcquireReply reply;
		try {
			reply = this.store.acquireFair(entry.key, owner, LockReleaser.toMillis(lease),
					(remainingNanos > 0) ? LockReleaser.toMillis(remainingNanos) : 0);
		}
		catch (RuntimeException | Error ex) {
			// The command may still be applied (queued or granted): withdrawn if so.
			this.releaser.releaseLater(entry.key, owner);
			throw ex;
		}
		if (reply instanceof Unknown unknown
				&& (Thread.currentThread().isInterrupted() || Interrupts.isCause(unknown.cause()))) {
			this.releaser.releaseLater(entry.key, owner);
			LockNotAcquiredException interrupted = Interrupts.restoreFlagAndFail(entry.lockId);
			interrupted.addSuppressed(unknown.cause());
			throw interrupted;
		}
		return reply;
	}

	private @Nullable HeldLock holding(LockEntry entry, String owner, long fencingToken, long lease,
			long fixedLeaseNanos, long sentAt) {
		if (this.runtime.nanoTime() - sentAt >= lease) {
			// The reply came after the lease would have run out: undone, and passed on.
			this.releaser.releaseLater(entry.key, owner);
			return null;
		}
		HeldLock held = new HeldLock(entry, owner, fencingToken, Thread.currentThread(), lease, fixedLeaseNanos == 0,
				sentAt);
		held.fair = true;
		this.releaser.holdAcquired(held);
		if (logger.isDebugEnabled()) {
			logger.debug("Acquired lock '" + LogSafe.text(entry.lockId) + "' (fair), fencing token " + fencingToken);
		}
		return held;
	}

	/**
	 * Holds the lock by the grant announced to {@code owner} since the last look, if any
	 * and if its conservative deadline leaves room to confirm its lease; otherwise the
	 * next attempt claims it.
	 */
	private @Nullable HeldLock heldByGrant(LockEntry entry, String owner, Waiter waiter, GrantWindow grants, long lease,
			long fixedLeaseNanos) {
		long fencingToken = waiter.takeAnnouncedGrant();
		long now = this.runtime.nanoTime();
		if (fencingToken == 0 || !grants.holdsLongEnough(now)) {
			return null;
		}
		HeldLock held = HeldLock.granted(entry, owner, fencingToken, Thread.currentThread(), lease,
				fixedLeaseNanos == 0, now, grants.deadlineNanos(now));
		held.fair = true;
		this.releaser.holdAcquired(held);
		if (logger.isDebugEnabled()) {
			logger.debug("Acquired lock '" + LogSafe.text(entry.lockId) + "' (fair) by a grant, fencing token "
					+ fencingToken);
		}
		return held;
	}

	private long recheckNanos(long holderTtlMillis, boolean subscribed) {
		long bound = subscribed ? SUBSCRIBED_RECHECK_NANOS : UNSUBSCRIBED_RECHECK_NANOS;
		long delay = bound / 2 + this.runtime.jitter(bound / 2);
		// The holder's lease (or a grant's) ends then at the latest.
		long untilExpiry = TimeUnit.MILLISECONDS.toNanos(holderTtlMillis);
		return Math.min(delay, untilExpiry + this.runtime.jitter(untilExpiry / 10) + 100_000);
	}

}
