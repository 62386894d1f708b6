package io.github.distlock.core;

import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * The threads of this instance waiting for one lock (its {@link LockEntry}), in arrival
 * order. Only the head competes in the store, and only while no live local holder exists;
 * the others wait for a hand-over, which the releasing holder gives the head.
 * <p>
 * The guard is held only for in-memory state changes, never across a store call.
 */
final class LocalWaiters {

	private final ReentrantLock guard = new ReentrantLock();

	private final ArrayDeque<Waiter> waiters = new ArrayDeque<>(4);

	/**
	 * A waiter was picked for a hand-over whose outcome is not known yet: the lock is
	 * still this instance's, although its holder let go.
	 */
	private volatile boolean handingOver;

	/**
	 * Whether a waiter was picked for a hand-over still in flight: the lock stays this
	 * instance's, so no other local thread competes for it in the store meanwhile.
	 */
	boolean isHandingOver() {
		return this.handingOver;
	}

	void enqueue(Waiter waiter) {
		this.guard.lock();
		try {
			this.waiters.addLast(waiter);
		}
		finally {
			this.guard.unlock();
		}
	}

	boolean isHead(Waiter waiter) {
		this.guard.lock();
		try {
			return this.waiters.peekFirst() == waiter;
		}
		finally {
			this.guard.unlock();
		}
	}

	/** The waiter acquired the lock itself, or was handed it: it leaves the queue. */
	void dequeue(Waiter waiter) {
		this.guard.lock();
		try {
			this.waiters.remove(waiter);
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * Gives up waiting. Fails while a hand-over to this waiter is in flight: the caller
	 * must then wait for its outcome (one round trip).
	 */
	boolean cancel(Waiter waiter) {
		return leaveQueue(waiter, Waiter.State.WAITING);
	}

	/**
	 * The waiter's own attempt in the store failed (an exception or error): it leaves the
	 * queue at once, never {@code WAITING} again, so no releasing holder can pick it
	 * while it leaves.
	 * @return whether it was attempting
	 */
	boolean cancelAttempt(Waiter waiter) {
		return leaveQueue(waiter, Waiter.State.ATTEMPTING);
	}

	private boolean leaveQueue(Waiter waiter, Waiter.State from) {
		if (!waiter.transition(from, Waiter.State.CANCELLED)) {
			return false;
		}
		boolean wasHead;
		this.guard.lock();
		try {
			wasHead = this.waiters.peekFirst() == waiter;
			this.waiters.remove(waiter);
		}
		finally {
			this.guard.unlock();
		}
		if (wasHead) {
			// The next one may have to compete in the store now.
			signalHead();
		}
		return true;
	}

	/**
	 * Picks the head waiter for a hand-over and removes it from the queue.
	 * @return the waiter, now {@code GRANTING}, or {@code null} if none is available
	 */
	@Nullable Waiter pickForHandOver() {
		this.guard.lock();
		try {
			Waiter head = this.waiters.peekFirst();
			if (head != null && head.transition(Waiter.State.WAITING, Waiter.State.GRANTING)) {
				this.waiters.pollFirst();
				this.handingOver = true;
				return head;
			}
			return null;
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * The hand-over in flight succeeded: the waiter it was for is the holder now (see
	 * {@link LockEntry#handedOver}).
	 */
	void handedOver() {
		this.handingOver = false;
	}

	/**
	 * A hand-over failed: the waiter goes back to the front of the queue and competes.
	 */
	void handOverFailed(Waiter waiter) {
		this.guard.lock();
		try {
			waiter.transition(Waiter.State.GRANTING, Waiter.State.WAITING);
			this.waiters.addFirst(waiter);
			this.handingOver = false;
		}
		finally {
			this.guard.unlock();
		}
		waiter.signal();
	}

	void signalHead() {
		Waiter head;
		this.guard.lock();
		try {
			head = this.waiters.peekFirst();
		}
		finally {
			this.guard.unlock();
		}
		if (head != null) {
			head.signal();
		}
	}

	void signalAll() {
		this.guard.lock();
		try {
			this.waiters.forEach(Waiter::signal);
		}
		finally {
			this.guard.unlock();
		}
	}

	boolean hasWaiters() {
		this.guard.lock();
		try {
			return !this.waiters.isEmpty();
		}
		finally {
			this.guard.unlock();
		}
	}

}
