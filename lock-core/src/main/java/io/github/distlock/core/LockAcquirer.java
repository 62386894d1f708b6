package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotReplicated;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
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
 * With a store that grants, the local head is also queued in the store while it waits,
 * and a release by any instance may grant it the lock ({@link QueuedGrants}). One acquire
 * round trip and what its reply makes of the lock is an {@link AcquireAttempts attempt}.
 */
final class LockAcquirer {

	private final LockStore store;

	private final ReleaseNotifications releases;

	private final EngineRuntime runtime;

	private final LockReleaser releaser;

	private final BooleanSupplier stopped;

	private final AcquireAttempts attempts;

	private final QueuedGrants grants;

	LockAcquirer(LockStore store, ReleaseNotifications releases, EngineRuntime runtime, LockReleaser releaser,
			long leaseNanos, BooleanSupplier stopped, Runnable notReplicated) {
		this.store = store;
		this.releases = releases;
		this.runtime = runtime;
		this.releaser = releaser;
		this.stopped = stopped;
		this.attempts = new AcquireAttempts(store, releaser, leaseNanos, notReplicated, runtime);
		this.grants = new QueuedGrants(store, runtime, releaser, leaseNanos);
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
		long deadline = this.runtime.nanoTime() + LockArguments.waitNanos(waitTime);
		UnansweredAcquire unanswered = new UnansweredAcquire(this.runtime);
		QueuedAcquisition queueing = this.grants.start(fixedLeaseNanos);
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
			if (queueing != null) {
				this.grants.ended(entry, queueing, heldAs, owner);
			}
		}
	}

	private @Nullable HeldLock acquire(LockEntry entry, Duration waitTime, long deadline, long fixedLeaseNanos,
			UnansweredAcquire unanswered, @Nullable QueuedAcquisition queueing) {
		long holderTtlMillis = -1;
		if (entry.isFree()) {
			AcquireAttempts.Attempt attempt = this.attempts.attempt(entry, fixedLeaseNanos, unanswered, queueing, 0);
			if (attempt.held() != null) {
				return attempt.held();
			}
			holderTtlMillis = attempt.holderTtlMillis();
		}
		if (this.runtime.nanoTime() - deadline >= 0) {
			unanswered.throwIfPending(entry.lockId, waitTime);
			return null;
		}
		Waiter waiter = new Waiter(Thread.currentThread(), fixedLeaseNanos, queueing, this.runtime);
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
					HeldLock byGrant = this.grants.heldByGrant(entry, waiter, queueing);
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
					AcquireAttempts.Attempt attempt;
					try {
						if (entry.turnForOthers.takeHeadStart()) {
							giveOthersAHeadStart(entry);
						}
						attempt = this.attempts.attempt(entry, fixedLeaseNanos, unanswered, queueing,
								deadline - this.runtime.nanoTime());
					}
					catch (Throwable ex) {
						// Straight from ATTEMPTING to CANCELLED: no releaser can
						// pick it for a hand-over while the failure propagates.
						entry.waiters.cancelAttempt(waiter);
						throw ex;
					}
					if (attempt.held() != null) {
						// Never WAITING again, so no releaser can pick it for a hand-over
						// meanwhile.
						waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.ACQUIRED);
						entry.waiters.dequeue(waiter);
						return attempt.held();
					}
					waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.WAITING);
					holderTtlMillis = attempt.holderTtlMillis();
				}
				long now = this.runtime.nanoTime();
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
					// one round trip. An interrupt meanwhile is kept for then, so that
					// the
					// park parks (with the flag set it returns at once: a spin).
					interrupted |= Thread.interrupted();
					waiter.park(TimeUnit.MILLISECONDS.toNanos(10));
					continue;
				}
				// The back-off again: the attempt just made may have gone unanswered.
				backOff = unanswered.backOffNanos();
				long pause = (backOff > 0) ? backOff
						: (holdBack > 0) ? holdBack : Rechecks.delayNanos(holderTtlMillis, subscribed, this.runtime);
				waiter.park(Math.min(deadline - now, pause));
				holderTtlMillis = -1;
				if (Thread.interrupted()) {
					interrupted = true;
				}
				// At every wake-up: a store subscribing per lock learns that this lock
				// is still waited for, and re-subscribes one that moved. Not when handed
				// the lock: subscribing again after a drop takes a round trip (a command
				// timeout when Redis does not answer), which a short lease may not
				// outlast (found by the simulation, seed 16490: a 657 ms lease ran out
				// while the granted waiter re-subscribed for 1 s, and a later holder's
				// token preceded it).
				if (waiter.state() != Waiter.State.GRANTED) {
					subscribed = this.releases.ensureActive(entry.key, this.runtime.nanoTime());
				}
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
				// round trip. An interrupt meanwhile is restored at the end, not left set
				// for the park to return at once.
				interrupted |= Thread.interrupted();
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

}
