package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.SharedLockConflictException;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
import org.jspecify.annotations.Nullable;

/**
 * Gets a shared hold (READ, or a permit) for the calling thread within its wait time.
 * Shared holds of one id by threads of this instance do not exclude each other, so there
 * is no local queue and no local hand-over: each thread has its own entry (see
 * {@link LockEntries#enterShared}) and its own acquire round trips; while refused, it
 * parks until a release (or a grant) of the key is announced or its bounded, jittered
 * re-check comes. Shared waiters never queue in the store: an exclusive waiter queued
 * there makes the store refuse them, so writers are not starved. An acquire the store did
 * not answer is tried again with the same owner token after a back-off, and released on
 * the way out unless it became the hold, as {@link LockAcquirer} does.
 */
final class SharedAcquirer {

	private final LockStore store;

	private final ReleaseNotifications releases;

	private final EngineRuntime runtime;

	private final LockReleaser releaser;

	private final long leaseNanos;

	private final BooleanSupplier stopped;

	SharedAcquirer(LockStore store, ReleaseNotifications releases, EngineRuntime runtime, LockReleaser releaser,
			long leaseNanos, BooleanSupplier stopped) {
		this.store = store;
		this.releases = releases;
		this.runtime = runtime;
		this.releaser = releaser;
		this.leaseNanos = leaseNanos;
		this.stopped = stopped;
	}

	/**
	 * Acquires a shared hold of {@code entry}'s key for the calling thread.
	 * @param permits 0 for READ, or the number of permits
	 * @param fixedLeaseNanos a fixed lease, or 0 for an auto-renewed one
	 * @return the hold, or {@code null} if the wait time passed while it was refused
	 * @throws LockNotAcquiredException when interrupted, when the service shut down
	 * meanwhile, or when the wait time passed while the store did not answer
	 * @throws IllegalStateException when the id is held with another number of permits
	 */
	@Nullable HeldLock acquire(LockEntry entry, Duration waitTime, long fixedLeaseNanos, int permits) {
		long deadline = this.runtime.nanoTime() + LockArguments.waitNanos(waitTime);
		UnansweredAcquire unanswered = new UnansweredAcquire(this.runtime);
		Waiter waiter = null;
		HeldLock held = null;
		try {
			boolean subscribed = false;
			while (true) {
				if (Thread.interrupted()) {
					throw Interrupts.restoreFlagAndFail(entry.lockId);
				}
				if (this.stopped.getAsBoolean()) {
					throw new LockNotAcquiredException(entry.lockId,
							"The LockService shut down while waiting for lock '" + LogSafe.text(entry.lockId) + "'");
				}
				long holderTtlMillis = -1;
				if (unanswered.backOffNanos() == 0) {
					Object outcome = attempt(entry, fixedLeaseNanos, permits, unanswered);
					if (outcome instanceof HeldLock acquired) {
						held = acquired;
						return held;
					}
					holderTtlMillis = (Long) outcome;
				}
				long now = this.runtime.nanoTime();
				if (now - deadline >= 0) {
					unanswered.throwIfPending(entry.lockId, waitTime);
					return null;
				}
				if (waiter == null) {
					// Subscribed, then tried again, so that a release after the first
					// attempt is never missed.
					waiter = new Waiter(Thread.currentThread(), fixedLeaseNanos, null, this.runtime);
					entry.waiters.enqueue(waiter);
					subscribed = this.releases.ensureActive(entry.key, deadline);
					continue;
				}
				long backOff = unanswered.backOffNanos();
				long pause = (backOff > 0) ? backOff : Rechecks.delayNanos(holderTtlMillis, subscribed, this.runtime);
				waiter.park(Math.min(deadline - now, pause));
				subscribed = this.releases.ensureActive(entry.key, this.runtime.nanoTime());
			}
		}
		finally {
			if (waiter != null) {
				entry.waiters.cancel(waiter);
			}
			String owner = unanswered.settle();
			if (owner != null && (held == null || !owner.equals(held.ownerToken))) {
				// Its acquire may still be applied (or was): removed again.
				this.releaser.releaseLater(entry.key, owner);
			}
		}
	}

	/**
	 * One acquire round trip.
	 * @return the {@link HeldLock}, or how long the holder's lease still runs in ms (-1
	 * when not known, 0 when the lease of the reply had run out)
	 */
	private Object attempt(LockEntry entry, long fixedLeaseNanos, int permits, UnansweredAcquire unanswered) {
		long lease = (fixedLeaseNanos > 0) ? fixedLeaseNanos : this.leaseNanos;
		String owner = unanswered.nextOwner();
		long sentAt = this.runtime.nanoTime();
		AcquireReply reply;
		try {
			reply = this.store.acquireShared(entry.key, owner, permits, LockReleaser.toMillis(lease));
		}
		catch (SharedLockConflictException ex) {
			throw new IllegalStateException("Lock '" + LogSafe.text(entry.lockId) + "' is held as "
					+ SharedLockConflictException.describe(ex.getHeldPermits()) + " and cannot be taken as "
					+ SharedLockConflictException.describe(permits)
					+ ": the number of permits is part of a lock's identity, every caller must ask for the same", ex);
		}
		catch (RuntimeException ex) {
			// The command may still be applied after we gave up: removed on the way out.
			unanswered.unanswered(owner, ex);
			throw Interrupts.interruptOr(entry.lockId, ex);
		}
		catch (Error ex) {
			unanswered.unanswered(owner, ex);
			throw ex;
		}
		if (reply instanceof Unknown unknown) {
			unanswered.unanswered(owner, unknown.cause());
			if (Thread.currentThread().isInterrupted() || Interrupts.isCause(unknown.cause())) {
				throw Interrupts.interruptOr(entry.lockId, unknown.cause());
			}
			return -1L;
		}
		// A repeated token's acquire resets the lease it finds (the store's contract), so
		// the lease starts no earlier than this attempt, whenever the first one landed.
		long leaseStart = sentAt;
		String settled = unanswered.settle();
		if (reply instanceof HeldByOther other) {
			if (settled != null) {
				this.releaser.releaseLater(entry.key, settled);
			}
			return other.remainingLeaseMillis();
		}
		long fencingToken = ((Acquired) reply).fencingToken();
		if (this.runtime.nanoTime() - leaseStart >= lease) {
			this.releaser.releaseLater(entry.key, owner);
			return 0L;
		}
		HeldLock held = new HeldLock(entry, owner, fencingToken, Thread.currentThread(), lease, fixedLeaseNanos == 0,
				leaseStart);
		this.releaser.holdAcquired(held);
		return held;
	}

}
