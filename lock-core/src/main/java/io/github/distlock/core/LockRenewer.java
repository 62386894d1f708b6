package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The watchdog: renews every auto-renewed lock of this instance about every third of its
 * lease, on a small pool of daemon threads, so that one slow round trip delays no other
 * lock's renewal. Locks with long leases (renewed less often than every {@code 2 ×}
 * {@link RenewalSweep#SWEEP_NANOS}) are renewed in batches by the {@link RenewalSweep},
 * with the same guarantees ({@link RenewalBatch}); the others, and every retry, one by
 * one. Renewal is owner-checked; when it finds the key gone or taken, or keeps failing
 * until the local deadline passed, the lock is marked lost at once. Nothing else runs on
 * these threads: clean-ups and lock-lost listeners have their own.
 * <p>
 * A renewal call can block for the command timeout (store paused, network black-holed),
 * so while one is in flight a second thread, which never does I/O, guards the lease
 * deadline: the loss is signalled when the lease ends, not when the stuck call finally
 * returns.
 * <p>
 * A renewal and {@code extend} (also here: both change a lease) send their command and
 * apply the lease under the held lock's lease lock; after an {@code extend} the lock is
 * renewed with the extended lease, and the renewals scheduled for the old one are stale
 * and do nothing.
 * <p>
 * The first renewal comes after a third of the lease, or of what is left of it if less (a
 * lock held by a grant counts its lease conservatively from before the grant, see
 * {@link GrantWindow}).
 */
final class LockRenewer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LockRenewer.class);

	/** Retry delay after a failed renewal, capped by the renewal interval. */
	private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	/**
	 * Renewal threads, so renewals in flight at once. Each waits for one round trip at a
	 * time: a few keep up with thousands of locks, and a reply that does not come holds
	 * up no other lock.
	 */
	private static final int RENEWAL_THREADS = 4;

	private final LockStore store;

	private final Outcomes outcomes;

	private final EngineRuntime runtime;

	private final TaskPool scheduler;

	private final TaskPool deadlineGuard;

	private final RenewalSweep<HeldLock> sweep;

	LockRenewer(LockStore store, Outcomes outcomes, EngineRuntime runtime) {
		this.store = store;
		this.outcomes = outcomes;
		this.scheduler = runtime.newTaskPool("distlock-renewal", RENEWAL_THREADS, false);
		this.deadlineGuard = runtime.newTaskPool("distlock-lease-guard", 1, false);
		this.runtime = runtime;
		this.sweep = new RenewalSweep<>(this.deadlineGuard, runtime,
				(due) -> this.scheduler.execute(new RenewalBatch(due, this)));
	}

	/** Starts renewing an auto-renewed lock just acquired, granted or handed over. */
	void start(HeldLock held) {
		schedule(held, Math.max(held.firstRenewalDueNanos(), 1), 0);
	}

	/**
	 * Sets the lease of a held lock to {@code leaseTime} from now, in the store and then
	 * locally, as one step with the watchdog's renewals (see {@link HeldLock}). An
	 * auto-renewed lock is renewed with {@code leaseTime} from then on, about every third
	 * of it.
	 */
	boolean extend(HeldLock held, Duration leaseTime) {
		LockArguments.checkExtendedLease(held, leaseTime);
		// Whole milliseconds, as the store gets them: the local lease must not be longer
		// than the store's.
		long leaseMillis = leaseTime.toMillis();
		long leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
		if (!held.isHeld() || !held.lockLease()) {
			return false;
		}
		try {
			if (!held.isHeld()) {
				return false;
			}
			long sentAt = this.runtime.nanoTime();
			ExtendReply reply;
			try {
				reply = this.store.extend(held.entry.key, held.ownerToken, leaseMillis);
			}
			catch (RuntimeException ex) {
				held.leaseResetMayApply(sentAt, leaseNanos);
				throw ex;
			}
			if (reply instanceof Unknown unknown) {
				// A shorter lease may still be set in the store: the local deadline must
				// not outlast it.
				held.leaseResetMayApply(sentAt, leaseNanos);
				throw unknown.cause();
			}
			if (reply instanceof Extended) {
				held.leaseResetAt(sentAt, leaseNanos);
				if (held.autoRenewed) {
					leaseChanged(held, leaseNanos);
				}
				// False if the lease ran out (and the loss was reported) while the reply
				// was on its way.
				return held.isHeld();
			}
		}
		finally {
			held.unlockLease();
		}
		this.outcomes.lost(held, "extend found the lock key expired or owned by another instance");
		return false;
	}

	/**
	 * {@code extend} changed the lease: renew with the new one about every third of it
	 * from now on. Only under the held lock's lease lock, after the lease was set in the
	 * store.
	 */
	void leaseChanged(HeldLock held, long leaseNanos) {
		int generation = held.leaseChanged(leaseNanos);
		schedule(held, interval(held), generation);
	}

	/**
	 * Renews an auto-renewed lock now, on the calling thread, instead of when due: the
	 * renewals scheduled for it become stale (as after an {@code extend}) and the next
	 * one is scheduled from this one. A renewal that finds the lock gone reports the loss
	 * as a scheduled one does. Fixed leases are never renewed.
	 */
	void renewNow(HeldLock held) {
		if (!held.autoRenewed || held.state() != HeldLock.State.HELD) {
			return;
		}
		if (!held.lockLease()) {
			this.outcomes.lost(held, "the lease ran out while another change of it was in flight");
			return;
		}
		int generation;
		try {
			generation = held.leaseChanged(held.leaseNanos());
		}
		finally {
			held.unlockLease();
		}
		renew(held, generation);
	}

	/**
	 * Schedules a renewal of {@code held} in {@code delayNanos}, which does nothing if
	 * the renewal generation has moved on from {@code generation} meanwhile: by the sweep
	 * when it is far enough away, else on its own.
	 */
	void schedule(HeldLock held, long delayNanos, int generation) {
		if (RenewalSweep.sweeps(delayNanos)) {
			if (held.state() == HeldLock.State.HELD && !this.scheduler.isShutdown()) {
				this.sweep.renewIn(held, delayNanos, generation);
			}
			return;
		}
		scheduleAlone(held, delayNanos, generation);
	}

	/** {@link #schedule}, on its own: a task of its own in {@code delayNanos}. */
	void scheduleAlone(HeldLock held, long delayNanos, int generation) {
		if (held.state() == HeldLock.State.HELD && !this.scheduler.isShutdown()) {
			held.renewal(this.scheduler.schedule(() -> renew(held, generation), delayNanos), generation);
		}
	}

	private void renew(HeldLock held, int generation) {
		if (held.state() != HeldLock.State.HELD || held.renewalGeneration() != generation) {
			return;
		}
		if (held.remainingNanos() <= 0) {
			// A retry due at the deadline, or a renewal that ran late (process paused):
			// the holder
			// already sees isHeld() == false, and a lost lock is never renewed back to
			// life.
			this.outcomes.lost(held, "the lease ran out before it was renewed");
			return;
		}
		TaskPool.Scheduled guard = this.deadlineGuard.schedule(() -> {
			if (held.remainingNanos() <= 0) {
				this.outcomes.lost(held, "renewal did not complete before the lease ran out");
			}
		}, Math.max(held.remainingNanos(), 0));
		long next;
		try {
			if (!held.lockLease()) {
				this.outcomes.lost(held, "the lease ran out while another change of it was in flight");
				return;
			}
			try {
				next = renewLeased(held, generation);
			}
			finally {
				held.unlockLease();
			}
		}
		finally {
			guard.cancel();
		}
		// Scheduled once the lease lock is free: the next renewal never waits for this
		// one. If an
		// extend changed the lease meanwhile, the generation is stale and nothing is
		// scheduled.
		if (next >= 0) {
			schedule(held, next, generation);
		}
	}

	/**
	 * One renewal round trip, under the lease lock.
	 * @return the delay until the next renewal or retry, or -1 for none
	 */
	private long renewLeased(HeldLock held, int generation) {
		if (held.state() != HeldLock.State.HELD || held.renewalGeneration() != generation) {
			// Released, or extended while this renewal waited: the extend scheduled the
			// next one.
			return -1;
		}
		long lease = held.leaseNanos();
		long sentAt = this.runtime.nanoTime();
		ExtendReply reply;
		try {
			reply = this.store.extend(held.entry.key, held.ownerToken, TimeUnit.NANOSECONDS.toMillis(lease));
		}
		catch (RuntimeException ex) {
			return failed(held, ex);
		}
		if (reply instanceof Extended) {
			held.leaseResetAt(sentAt, lease);
			held.renewalFailing = false;
			return interval(held);
		}
		if (reply instanceof Unknown unknown) {
			return failed(held, unknown.cause());
		}
		this.outcomes.lost(held, "renewal found the lock key expired or owned by another instance");
		return -1;
	}

	/**
	 * A renewal failed or its outcome is unknown: retried until the lease runs out.
	 * @return the delay of the retry, or -1 when the lock is lost
	 */
	long failed(HeldLock held, RuntimeException ex) {
		held.renewalFailing = true;
		this.outcomes.renewalFailed(held, ex);
		if (logger.isDebugEnabled()) {
			logger.debug("Renewal of lock '" + LogSafe.text(held.entry.lockId) + "' failed", ex);
		}
		if (held.remainingNanos() <= 0) {
			this.outcomes.lost(held, "renewal failed until the lease ran out: " + ex);
			return -1;
		}
		// Retry, but no later than the deadline, so that the loss is signalled when the
		// lease
		// ends and not up to one retry delay after it.
		return Math.min(Math.min(RETRY_NANOS, interval(held)), Math.max(held.remainingNanos(), 0));
	}

	/**
	 * Renewals (also those the sweep has yet to schedule) and lease guards not yet run; 0
	 * when no lock is held. The sweep itself is not counted: it runs while the service
	 * does.
	 */
	int pendingTasks() {
		return (int) (this.scheduler.pending() - this.sweep.sweepsPending() + this.sweep.awaiting()
				+ this.deadlineGuard.pending());
	}

	/** Locks waiting in the sweep's buckets, also those no longer held (for tests). */
	long sweepEntries() {
		return this.sweep.entries();
	}

	/** For {@link RenewalBatch}: the lease resets of a batch. */
	List<ExtendReply> extendAll(List<LeaseReset> resets) {
		return this.store.extendAll(resets);
	}

	/** For {@link RenewalBatch}: a check of lease deadlines, on a thread without I/O. */
	TaskPool.Scheduled guard(Runnable check, long delayNanos) {
		return this.deadlineGuard.schedule(check, delayNanos);
	}

	void lost(HeldLock held, String reason) {
		this.outcomes.lost(held, reason);
	}

	long nanoTime() {
		return this.runtime.nanoTime();
	}

	static long interval(HeldLock held) {
		return Math.max(held.leaseNanos() / 3, 1);
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
		this.deadlineGuard.shutdownNow();
	}

	/**
	 * What renewal reports to the lock service.
	 */
	interface Outcomes {

		void renewalFailed(HeldLock held, RuntimeException failure);

		void lost(HeldLock held, String reason);

	}

}
