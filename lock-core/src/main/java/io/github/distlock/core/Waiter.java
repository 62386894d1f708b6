package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

/**
 * A thread of this instance waiting for a lock. It parks until signalled (release seen
 * locally or announced by the store), handed the lock by the local holder, or its
 * fallback re-check or deadline comes.
 */
final class Waiter {

	enum State {

		/** Parked or about to be; may be picked for a hand-over. */
		WAITING,
		/** Trying to acquire in the store itself; not available for a hand-over. */
		ATTEMPTING,
		/** Picked by the releasing holder; the hand-over is in flight. */
		GRANTING,
		/** Holds the lock: {@link #granted} is set. */
		GRANTED,
		/** Acquired the lock in the store itself and left the queue. */
		ACQUIRED,
		/**
		 * Gave up (deadline, interrupt, shutdown, or its own attempt failed); out of the
		 * queue.
		 */
		CANCELLED

	}

	final Thread thread;

	private final EngineRuntime runtime;

	/** Fixed lease asked for, or 0 for an auto-renewed lease. */
	final long fixedLeaseNanos;

	/**
	 * Its acquisition, when it may be queued in the store (default mode with a store that
	 * grants), or {@code null}: a hand-over to it withdraws that queue entry.
	 */
	final @Nullable QueuedAcquisition queued;

	private final AtomicReference<State> state = new AtomicReference<>(State.WAITING);

	private volatile boolean signalled;

	private volatile @Nullable HeldLock granted;

	/**
	 * The fencing token of the latest grant the store announced to this waiter and the
	 * waiter has not taken yet, or 0.
	 */
	private final AtomicLong announcedGrant = new AtomicLong();

	Waiter(Thread thread, long fixedLeaseNanos) {
		this(thread, fixedLeaseNanos, EngineRuntime.system());
	}

	Waiter(Thread thread, long fixedLeaseNanos, EngineRuntime runtime) {
		this(thread, fixedLeaseNanos, null, runtime);
	}

	Waiter(Thread thread, long fixedLeaseNanos, @Nullable QueuedAcquisition queued, EngineRuntime runtime) {
		this.thread = thread;
		this.runtime = runtime;
		this.fixedLeaseNanos = fixedLeaseNanos;
		this.queued = queued;
	}

	State state() {
		return this.state.get();
	}

	boolean transition(State from, State to) {
		return this.state.compareAndSet(from, to);
	}

	void signal() {
		this.signalled = true;
		this.runtime.unpark(this.thread);
	}

	/** Called by the releasing holder after a successful hand-over. */
	void grant(HeldLock held) {
		this.granted = held;
		this.state.set(State.GRANTED);
		this.runtime.unpark(this.thread);
	}

	@Nullable HeldLock granted() {
		return this.granted;
	}

	/**
	 * The store announced that it granted the lock to this waiter's owner token with
	 * {@code fencingToken}: kept (the greatest, should announcements of an earlier grant
	 * that ran out come late) until the waiter takes it, and the waiter woken.
	 */
	void grantAnnounced(long fencingToken) {
		this.announcedGrant.accumulateAndGet(fencingToken, Math::max);
		signal();
	}

	/**
	 * The fencing token of the grant announced since the last call, if any.
	 * @return the token, or 0 if none was announced
	 */
	long takeAnnouncedGrant() {
		return this.announcedGrant.getAndSet(0);
	}

	/**
	 * Parks unless signalled since the last call; returns early on signal, grant or
	 * interrupt, and only then. A bare unpark is not a reason: a reply to a call the
	 * waiter already returned from (a quorum node answering after a majority did) leaves
	 * a permit behind, and a waiter woken by it went round its loop again, asking the
	 * store anew, whose late replies left new permits: waiting turned into spinning (166
	 * subscription checks a second instead of 8, on a loaded machine). So it parks again
	 * for what is left.
	 */
	void park(long nanos) {
		if (!this.signalled && this.state.get() != State.GRANTED) {
			long until = this.runtime.nanoTime() + nanos;
			long left = nanos;
			do {
				this.runtime.park(this, left);
				left = until - this.runtime.nanoTime();
			}
			while (left > 0 && !this.signalled && this.state.get() != State.GRANTED
					&& !Thread.currentThread().isInterrupted());
		}
		this.signalled = false;
	}

}
