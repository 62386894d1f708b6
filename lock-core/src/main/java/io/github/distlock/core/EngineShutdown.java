package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.github.distlock.support.LogSafe;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The shutdown of a {@link LockEngine}, and the acquisitions in flight that it waits for.
 * <p>
 * A shutdown must leave nothing in the store that would hold a lock up for others: every
 * held lock is released, and every thread waiting for a lock is woken and leaves with its
 * clean-up done — the withdrawal of its queue entry in the store (else the next release
 * grants the lock to a waiter that is gone) and the release of an acquire token that went
 * unanswered. Those clean-ups run when the waiting threads leave, after the shutdown
 * began, and need the store's connections, which an application context stops right after
 * the lock service. So the shutdown waits for the acquisitions in flight to end and for
 * their clean-ups to run, at most {@link #WAIT} in all (a thread blocked in a store call
 * that does not answer ends only with the client's command timeout), then moves on with a
 * warning; what was not cleaned up then ends with its lease or wait time in the store.
 */
final class EngineShutdown {

	/** The longest a shutdown waits for acquisitions in flight and their clean-ups. */
	static final Duration WAIT = Duration.ofSeconds(5);

	/** How often waiters are woken again while the shutdown waits for them. */
	private static final long WAKE_UP_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private static final Log logger = LogFactory.getLog(EngineShutdown.class);

	private final EngineRuntime runtime;

	/** The thread waiting for the acquisitions to end, if any. */
	private volatile @Nullable Thread closing;

	private final AtomicInteger acquisitions = new AtomicInteger();

	/**
	 * The calling thread's acquisitions ([0]) and releases ([1]) in flight. A shutdown
	 * started from inside one (a listener, an observation handler) does not wait for
	 * itself; from inside a release it waits for nobody, since a waiter may be waiting
	 * for that release's hand-over.
	 */
	private final ThreadLocal<int[]> own = ThreadLocal.withInitial(() -> new int[2]);

	private volatile boolean closed;

	EngineShutdown(EngineRuntime runtime) {
		this.runtime = runtime;
	}

	boolean isClosed() {
		return this.closed;
	}

	/**
	 * An acquisition starts, unless the service is shut down. Counted before the flag is
	 * read, and the shutdown sets the flag before it reads the count: an acquisition
	 * either sees the service closed or is waited for.
	 * @return whether it may start; when {@code true}, {@link #acquisitionEnded()} must
	 * follow
	 */
	boolean acquisitionStarted() {
		this.acquisitions.incrementAndGet();
		if (this.closed) {
			this.acquisitions.decrementAndGet();
			signalIfClosed();
			return false;
		}
		this.own.get()[0]++;
		return true;
	}

	/** An acquisition that {@linkplain #acquisitionStarted() started} ended. */
	void acquisitionEnded() {
		this.own.get()[0]--;
		this.acquisitions.decrementAndGet();
		signalIfClosed();
	}

	/**
	 * Runs one acquisition of {@code lockId}, counted from start to end: refused once the
	 * service shut down, and at once when the calling thread is interrupted.
	 * @throws IllegalStateException when the service has been shut down
	 * @throws io.github.distlock.LockNotAcquiredException when the thread is interrupted
	 */
	<T> T acquisition(String lockId, Supplier<T> acquisition) {
		if (!acquisitionStarted()) {
			throw new IllegalStateException(
					"The LockService has been shut down; lock '" + LogSafe.text(lockId) + "' cannot be acquired");
		}
		try {
			if (Thread.interrupted()) {
				throw Interrupts.restoreFlagAndFail(lockId);
			}
			return acquisition.get();
		}
		finally {
			acquisitionEnded();
		}
	}

	/**
	 * Runs the release of a lock, counted as one of the calling thread's releases in
	 * flight.
	 */
	void release(Runnable release) {
		int[] own = this.own.get();
		own[1]++;
		try {
			release.run();
		}
		finally {
			own[1]--;
		}
	}

	private void signalIfClosed() {
		Thread closing = this.closing;
		if (closing != null) {
			this.runtime.unpark(closing);
		}
	}

	/**
	 * Closes the service to new acquisitions, then wakes the waiting threads (again every
	 * few milliseconds, in case one parked just before it saw the service closed) until
	 * every acquisition in flight ended or the deadline passed.
	 * @param wakeWaiters wakes every waiting thread of the service
	 * @param deadlineNanos when to stop waiting, by the runtime's clock
	 * @return whether every acquisition ended in time
	 */
	boolean closeAndAwaitAcquisitions(Runnable wakeWaiters, long deadlineNanos) {
		this.closing = Thread.currentThread();
		this.closed = true;
		int[] ownNow = this.own.get();
		int own = ownNow[0];
		boolean interrupted = false;
		try {
			while (true) {
				wakeWaiters.run();
				if (ownNow[1] > 0) {
					return false;
				}
				if (this.acquisitions.get() <= own) {
					return true;
				}
				long left = deadlineNanos - this.runtime.nanoTime();
				if (left <= 0) {
					logger.warn("The LockService shut down while " + (this.acquisitions.get() - own)
							+ " acquisition(s) were still waiting for the lock store after " + WAIT.toSeconds()
							+ "s; what they leave behind in the store ends with its lease or wait time");
					return false;
				}
				this.runtime.park(this, Math.min(left, WAKE_UP_NANOS));
				interrupted |= Thread.interrupted();
			}
		}
		finally {
			this.closing = null;
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
