package io.github.distlock.redis;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * One ownership of a lock in Redis by one thread of this instance, shared by the nested
 * (reentrant) handles of that thread.
 * <p>
 * The local deadline is measured with {@link System#nanoTime()} from before the command that set
 * the lease was sent, so it never ends later than the key's expiry in Redis: a holder that was
 * paused past its lease sees {@link #isHeld()} {@code false} on resume without a round trip.
 */
final class HeldLock {

	enum State {

		HELD, RELEASED, LOST

	}

	final LockEntry entry;

	final String ownerToken;

	final long fencingToken;

	final Thread owner;

	/** Lease of an auto-renewed lock, or the fixed lease. */
	final long leaseNanos;

	final boolean autoRenewed;

	final long acquiredAtNanos;

	private volatile long deadlineNanos;

	private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

	private volatile @Nullable String lostReason;

	private volatile @Nullable ScheduledFuture<?> renewal;

	/** Whether the last renewal attempt failed (and the lease is running out). */
	volatile boolean renewalFailing;

	/** Nested holds on the owner thread; 1 for the outermost. */
	final AtomicInteger depth = new AtomicInteger(1);

	/** The static lock name the holder acquired it under, if it knew one (for operators). */
	volatile @Nullable String name;

	/** The observation of this hold, while Micrometer observes it. */
	volatile @Nullable Observation holdObservation;

	HeldLock(LockEntry entry, String ownerToken, long fencingToken, Thread owner, long leaseNanos,
			boolean autoRenewed, long acquiredAtNanos) {
		this.entry = entry;
		this.ownerToken = ownerToken;
		this.fencingToken = fencingToken;
		this.owner = owner;
		this.leaseNanos = leaseNanos;
		this.autoRenewed = autoRenewed;
		this.acquiredAtNanos = acquiredAtNanos;
		this.deadlineNanos = acquiredAtNanos + leaseNanos;
	}

	boolean isHeld() {
		return this.state.get() == State.HELD && System.nanoTime() - this.deadlineNanos < 0;
	}

	State state() {
		return this.state.get();
	}

	/** A lease reset whose command was sent at {@code sentAtNanos} succeeded. */
	void leaseResetAt(long sentAtNanos, long leaseNanos) {
		this.deadlineNanos = sentAtNanos + leaseNanos;
	}

	long remainingNanos() {
		return this.deadlineNanos - System.nanoTime();
	}

	/**
	 * @return {@code true} if this call moved the lock from held to lost
	 */
	boolean markLost(String reason) {
		this.lostReason = reason;
		if (!this.state.compareAndSet(State.HELD, State.LOST)) {
			return false;
		}
		cancelRenewal();
		return true;
	}

	/**
	 * Ends the hold; renewal stops at once. A hold already marked lost (by renewal or by the
	 * service's shutdown) stays lost.
	 * @return {@code true} if this call moved the lock from held to released
	 */
	boolean markReleased() {
		if (!this.state.compareAndSet(State.HELD, State.RELEASED)) {
			return false;
		}
		cancelRenewal();
		return true;
	}

	@Nullable String lostReason() {
		if (this.state.get() == State.LOST && this.lostReason != null) {
			return this.lostReason;
		}
		if (System.nanoTime() - this.deadlineNanos >= 0) {
			return "lease expired before it was renewed or released";
		}
		return this.lostReason;
	}

	void renewal(@Nullable ScheduledFuture<?> renewal) {
		this.renewal = renewal;
		if (this.state.get() != State.HELD && renewal != null) {
			renewal.cancel(false);
		}
	}

	private void cancelRenewal() {
		ScheduledFuture<?> scheduled = this.renewal;
		if (scheduled != null) {
			scheduled.cancel(false);
		}
	}

}
