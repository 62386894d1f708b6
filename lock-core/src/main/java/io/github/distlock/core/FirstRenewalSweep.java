package io.github.distlock.core;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The first renewals of locks with long leases, for {@link LockRenewer}. Scheduling every
 * lock at acquisition would wake the renewal thread each time (a new earliest task
 * signals it): a second thread hop per lock, for a renewal that almost never happens. A
 * sweep once a second schedules the renewals of the locks still held instead, when they
 * are due before the next sweep.
 */
final class FirstRenewalSweep {

	/**
	 * Period of the sweep that schedules the first renewal of locks with long leases;
	 * also how long a released one may stay referenced.
	 */
	static final long SWEEP_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final LockRenewer renewer;

	private final TaskPool scheduler;

	/**
	 * Locks whose first renewal is more than a sweep away; most are released before it is
	 * due. A queue, not a set: adding must be cheap on every acquisition, and a hash set
	 * never shrinks.
	 */
	private final ConcurrentLinkedQueue<HeldLock> awaitingFirstRenewal = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean sweeping = new AtomicBoolean();

	/** Sweeps scheduled or running: at most one waits at a time. */
	private final AtomicInteger sweepsPending = new AtomicInteger();

	FirstRenewalSweep(LockRenewer renewer, TaskPool scheduler) {
		this.renewer = renewer;
		this.scheduler = scheduler;
	}

	/**
	 * Whether a lock renewed every {@code intervalNanos} waits for the sweep rather than
	 * being scheduled at once.
	 */
	static boolean waitsForSweep(long intervalNanos) {
		return intervalNanos > 2 * SWEEP_NANOS;
	}

	/** {@code held}, just acquired, waits for a sweep to schedule its first renewal. */
	void add(HeldLock held) {
		this.awaitingFirstRenewal.offer(held);
		if (!this.sweeping.get() && this.sweeping.compareAndSet(false, true)) {
			scheduleSweep();
		}
	}

	/** The next sweep, a sweep period from now, as long as the pool runs. */
	private void scheduleSweep() {
		if (this.scheduler.isShutdown()) {
			return;
		}
		this.sweepsPending.incrementAndGet();
		try {
			this.scheduler.schedule(this::sweepAndScheduleNext, SWEEP_NANOS);
		}
		catch (RejectedExecutionException ex) {
			// Shut down meanwhile.
			this.sweepsPending.decrementAndGet();
		}
	}

	private void sweepAndScheduleNext() {
		try {
			sweep();
		}
		finally {
			// The next one counted before this one ends.
			scheduleSweep();
			this.sweepsPending.decrementAndGet();
		}
	}

	private void sweep() {
		for (Iterator<HeldLock> it = this.awaitingFirstRenewal.iterator(); it.hasNext();) {
			HeldLock held = it.next();
			if (held.state() != HeldLock.State.HELD || held.renewalGeneration() != 0) {
				// Released, or extended (which scheduled its renewal itself).
				it.remove();
				continue;
			}
			long due = held.firstRenewalDueNanos();
			if (due <= SWEEP_NANOS) {
				// The next sweep could be too late.
				it.remove();
				this.renewer.schedule(held, Math.max(due, 0), 0);
			}
		}
	}

	/** Sweeps scheduled or running, counted by the pool as pending tasks. */
	int sweepsPending() {
		return this.sweepsPending.get();
	}

	/** The locks still held whose first renewal the sweep has yet to schedule. */
	long awaiting() {
		return this.awaitingFirstRenewal.stream().filter((held) -> held.state() == HeldLock.State.HELD).count();
	}

}
