package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A mutual exclusion lock, not reentrant, whose waiters park through the
 * {@link EngineRuntime}: for a lock held across a store call (a thread waiting for it
 * must not block where a simulated runtime cannot see it). Waiting for it is
 * uninterruptible: an interrupt is kept, not thrown.
 */
final class ParkingLock {

	private final EngineRuntime runtime;

	private final AtomicReference<Thread> owner = new AtomicReference<>();

	private final ConcurrentLinkedQueue<Thread> waiters = new ConcurrentLinkedQueue<>();

	ParkingLock(EngineRuntime runtime) {
		this.runtime = runtime;
	}

	/**
	 * Takes the lock, waiting at most {@code nanos}.
	 * @return whether it was taken
	 */
	boolean tryLock(long nanos) {
		Thread me = Thread.currentThread();
		if (this.owner.compareAndSet(null, me)) {
			return true;
		}
		long deadline = this.runtime.nanoTime() + nanos;
		boolean interrupted = false;
		this.waiters.add(me);
		try {
			while (true) {
				// After joining the waiters: an unlock from now on unparks this thread.
				if (this.owner.compareAndSet(null, me)) {
					return true;
				}
				long left = deadline - this.runtime.nanoTime();
				if (left <= 0) {
					return false;
				}
				this.runtime.park(this, left);
				interrupted |= Thread.interrupted();
			}
		}
		finally {
			this.waiters.remove(me);
			if (interrupted) {
				me.interrupt();
			}
		}
	}

	/** Takes the lock, however long that takes. */
	void lock() {
		while (!tryLock(Long.MAX_VALUE / 4)) {
			// Waited for more than a century: again.
		}
	}

	void unlock() {
		this.owner.set(null);
		Thread next = this.waiters.peek();
		if (next != null) {
			this.runtime.unpark(next);
		}
	}

}
