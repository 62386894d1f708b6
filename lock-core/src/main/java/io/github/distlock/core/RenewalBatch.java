package io.github.distlock.core;

import io.github.distlock.runtime.TaskPool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.Unknown;
import org.jspecify.annotations.Nullable;

/**
 * One batch of renewals of the {@link RenewalSweep}: one
 * {@link io.github.distlock.store.LockStore#extendAll} call for the locks due, with the
 * guarantees of a renewal of one lock ({@link LockRenewer}):
 * <ul>
 * <li>each lock's lease is reset under its lease lock, sent and applied as one step; a
 * lock whose lease lock is taken (an {@code extend} in flight) is renewed on its own
 * instead, once that is done, so the batch never waits for it;</li>
 * <li>each reply is the lock's own: a lock the store no longer has for this owner is lost
 * alone, a failed or unknown reply is retried for that lock alone until its lease runs
 * out;</li>
 * <li>while the call is in flight, the deadline guard signals the loss of each lock whose
 * lease runs out meanwhile, when it runs out, not when a stuck call returns.</li>
 * </ul>
 */
final class RenewalBatch implements Runnable {

	private final List<RenewalSweep.Due<HeldLock>> due;

	private final LockRenewer renewer;

	/** The locks of the call in flight, whose lease locks this batch holds. */
	private List<HeldLock> sent = List.of();

	/** Whether the call is in flight: the guard only signals losses until it returns. */
	private boolean inFlight;

	/** The deadline guard's next check while the call is in flight. */
	private TaskPool.@Nullable Scheduled guard;

	RenewalBatch(List<RenewalSweep.Due<HeldLock>> due, LockRenewer renewer) {
		this.due = due;
		this.renewer = renewer;
	}

	@Override
	public void run() {
		List<HeldLock> locks = new ArrayList<>(this.due.size());
		List<Integer> generations = new ArrayList<>(this.due.size());
		List<LeaseReset> resets = new ArrayList<>(this.due.size());
		for (RenewalSweep.Due<HeldLock> renewal : this.due) {
			HeldLock held = renewal.held();
			if (takeLease(held, renewal.generation())) {
				locks.add(held);
				generations.add(renewal.generation());
				resets.add(new LeaseReset(held.entry.key, held.ownerToken,
						TimeUnit.NANOSECONDS.toMillis(held.leaseNanos())));
			}
		}
		if (locks.isEmpty()) {
			return;
		}
		long[] next;
		try {
			next = send(List.copyOf(locks), resets);
		}
		finally {
			locks.forEach(HeldLock::unlockLease);
		}
		// Scheduled once the lease locks are free: the next renewal never waits for this
		// batch.
		for (int i = 0; i < next.length; i++) {
			if (next[i] >= 0) {
				this.renewer.schedule(locks.get(i), next[i], generations.get(i));
			}
		}
	}

	/**
	 * Takes the lease lock of a lock still to be renewed for {@code generation}.
	 * @return whether it is part of the call
	 */
	private boolean takeLease(HeldLock held, int generation) {
		if (held.state() != HeldLock.State.HELD || held.renewalGeneration() != generation) {
			// Released, or extended since it was found due: the extend renews it.
			return false;
		}
		if (held.remainingNanos() <= 0) {
			this.renewer.lost(held, "the lease ran out before it was renewed");
			return false;
		}
		if (!held.tryLockLeaseNow()) {
			// A change of the lease is in flight: renewed on its own once it is done.
			this.renewer.scheduleAlone(held, 0, generation);
			return false;
		}
		if (held.state() != HeldLock.State.HELD || held.renewalGeneration() != generation) {
			held.unlockLease();
			return false;
		}
		return true;
	}

	/**
	 * Sends the call and applies each reply, under the lease locks.
	 * @return per lock, the delay until its next renewal or retry, or -1 for none
	 */
	private long[] send(List<HeldLock> locks, List<LeaseReset> resets) {
		long sentAt = this.renewer.nanoTime();
		arm(locks);
		List<ExtendReply> replies;
		try {
			replies = this.renewer.extendAll(resets);
		}
		catch (RuntimeException ex) {
			replies = Collections.nCopies(resets.size(), new Unknown(ex));
		}
		finally {
			disarm();
		}
		long[] next = new long[locks.size()];
		for (int i = 0; i < next.length; i++) {
			next[i] = applied(locks.get(i), replies.get(i), sentAt);
		}
		return next;
	}

	/**
	 * Applies one lock's reply, under its lease lock.
	 * @return the delay until its next renewal or retry, or -1 for none
	 */
	private long applied(HeldLock held, ExtendReply reply, long sentAt) {
		if (held.state() != HeldLock.State.HELD) {
			// Lost meanwhile (the guard signalled its deadline).
			return -1;
		}
		if (reply instanceof Extended) {
			held.leaseResetAt(sentAt, held.leaseNanos());
			held.renewalFailing = false;
			return LockRenewer.interval(held);
		}
		if (reply instanceof Unknown unknown) {
			return this.renewer.failed(held, unknown.cause());
		}
		this.renewer.lost(held, "renewal found the lock key expired or owned by another instance");
		return -1;
	}

	private synchronized void arm(List<HeldLock> locks) {
		this.sent = locks;
		this.inFlight = true;
		rearm();
	}

	private synchronized void disarm() {
		this.inFlight = false;
		if (this.guard != null) {
			this.guard.cancel();
		}
	}

	/** The guard's next check at the earliest deadline of the locks in flight. */
	private synchronized void rearm() {
		long next = Long.MAX_VALUE;
		for (HeldLock held : this.sent) {
			if (held.state() == HeldLock.State.HELD) {
				next = Math.min(next, Math.max(held.remainingNanos(), 0));
			}
		}
		if (this.inFlight && next != Long.MAX_VALUE) {
			this.guard = this.renewer.guard(this::guardDeadlines, next);
		}
	}

	/**
	 * On the deadline guard's thread, which never does I/O: signals the loss of every
	 * lock whose lease ran out while the call is in flight, and watches for the next.
	 */
	private void guardDeadlines() {
		List<HeldLock> inFlight;
		synchronized (this) {
			if (!this.inFlight) {
				return;
			}
			inFlight = this.sent;
		}
		for (HeldLock held : inFlight) {
			if (held.state() == HeldLock.State.HELD && held.remainingNanos() <= 0) {
				this.renewer.lost(held, "renewal did not complete before the lease ran out");
			}
		}
		rearm();
	}

}
