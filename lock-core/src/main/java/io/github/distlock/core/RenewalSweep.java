package io.github.distlock.core;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The renewals of locks with long leases, for {@link LockRenewer}: in batches, so that
 * 100,000 held locks cost a few round trips per sweep instead of a scheduled task, a
 * thread hop and a round trip each.
 * <p>
 * Every lock renewed less often than twice a sweep period stays in one list while held. A
 * sweep every {@link #SWEEP_NANOS} takes the locks whose renewal is due before the next
 * sweep (so a lock is renewed up to one period early, never late), and renews them in
 * batches of {@link #BATCH} ({@link RenewalBatch}) on the renewal threads, each batch one
 * {@link io.github.distlock.store.LockStore#extendAll} call. The sweep itself runs on the
 * deadline guard's thread, which never waits for a reply. A lock renewed more often, and
 * every retry after a failed renewal, is renewed alone, as scheduled by the renewer.
 * Adding a lock costs no task and no wake-up: most locks are released before their first
 * renewal.
 */
final class RenewalSweep {

	/**
	 * Period of the sweep; also how long a released lock may stay referenced, and how
	 * early a lock may be renewed.
	 */
	static final long SWEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	/**
	 * Locks per {@code extendAll} call: large enough that a batch costs one round trip
	 * per few hundred locks, small enough that the renewal threads share a sweep's work.
	 */
	static final int BATCH = 512;

	/** Where batches run: the renewal threads. */
	private final TaskPool scheduler;

	/**
	 * Where the sweep runs: a thread that never does I/O (the deadline guard's), so that
	 * sweeps come on time while every renewal thread waits for a reply.
	 */
	private final TaskPool sweeper;

	private final LockRenewer renewer;

	/** The locks renewed by the sweep; a queue, as adding must be cheap. */
	private final ConcurrentLinkedQueue<HeldLock> renewed = new ConcurrentLinkedQueue<>();

	private final AtomicBoolean sweeping = new AtomicBoolean();

	/** Sweeps scheduled or running: at most one waits at a time. */
	private final AtomicInteger sweepsPending = new AtomicInteger();

	private final EngineRuntime runtime;

	RenewalSweep(TaskPool scheduler, TaskPool sweeper, EngineRuntime runtime, LockRenewer renewer) {
		this.scheduler = scheduler;
		this.sweeper = sweeper;
		this.runtime = runtime;
		this.renewer = renewer;
	}

	/**
	 * Whether a renewal due in {@code delayNanos} is left to the sweep rather than
	 * scheduled on its own.
	 */
	static boolean sweeps(long delayNanos) {
		return delayNanos > 2 * SWEEP_NANOS;
	}

	/** {@code held} is to be renewed in {@code delayNanos}, for {@code generation}. */
	void renewIn(HeldLock held, long delayNanos, int generation) {
		if (held.sweepDue(this.runtime.nanoTime() + delayNanos, generation)) {
			this.renewed.offer(held);
		}
		if (!this.sweeping.get() && this.sweeping.compareAndSet(false, true)) {
			scheduleSweep();
		}
	}

	/** The next sweep, a sweep period from now, as long as the pool runs. */
	private void scheduleSweep() {
		if (this.sweeper.isShutdown()) {
			return;
		}
		this.sweepsPending.incrementAndGet();
		try {
			this.sweeper.schedule(this::sweepAndScheduleNext, SWEEP_NANOS);
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
		long horizon = this.runtime.nanoTime() + SWEEP_NANOS;
		List<RenewalBatch.Due> due = new ArrayList<>();
		for (Iterator<HeldLock> it = this.renewed.iterator(); it.hasNext();) {
			HeldLock held = it.next();
			if (held.state() != HeldLock.State.HELD) {
				it.remove();
				continue;
			}
			int generation = held.claimSweepRenewal(horizon);
			if (generation >= 0) {
				due.add(new RenewalBatch.Due(held, generation));
			}
		}
		for (int from = 0; from < due.size(); from += BATCH) {
			try {
				this.scheduler
					.execute(new RenewalBatch(due.subList(from, Math.min(from + BATCH, due.size())), this.renewer));
			}
			catch (RejectedExecutionException ex) {
				// Shut down meanwhile: nothing is renewed any more.
				return;
			}
		}
	}

	/** Sweeps scheduled or running, counted by the pool as pending tasks. */
	int sweepsPending() {
		return this.sweepsPending.get();
	}

	/** The locks still held whose renewal the sweep has yet to send. */
	long awaiting() {
		return this.renewed.stream()
			.filter((held) -> held.state() == HeldLock.State.HELD && held.sweepRenewalPending())
			.count();
	}

}
