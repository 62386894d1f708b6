package io.github.distlock.core;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

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

	private final ScheduledThreadPoolExecutor scheduler;

	/**
	 * Locks whose first renewal is more than a sweep away; most are released before it is
	 * due. A queue, not a set: adding must be cheap on every acquisition, and a hash set
	 * never shrinks.
	 */
	private final ConcurrentLinkedQueue<HeldLock> awaitingFirstRenewal = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean sweeping = new AtomicBoolean();

	private volatile @Nullable ScheduledFuture<?> sweep;

	FirstRenewalSweep(LockRenewer renewer, ScheduledThreadPoolExecutor scheduler) {
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
		if (!this.sweeping.get() && this.sweeping.compareAndSet(false, true) && !this.scheduler.isShutdown()) {
			this.sweep = this.scheduler.scheduleWithFixedDelay(this::sweep, SWEEP_NANOS, SWEEP_NANOS,
					TimeUnit.NANOSECONDS);
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

	/** Whether {@code task}, from the scheduler's queue, is the sweep itself. */
	boolean isSweep(Runnable task) {
		return task == this.sweep;
	}

	/** The locks still held whose first renewal the sweep has yet to schedule. */
	long awaiting() {
		return this.awaitingFirstRenewal.stream().filter((held) -> held.state() == HeldLock.State.HELD).count();
	}

}
