package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The turn this instance owes waiters of other instances for one lock, once a local
 * hand-over freed the lock for them (it was wanted elsewhere and had stayed local a few
 * times in a row).
 * <p>
 * With a store that grants, the release that freed the lock gave it to the head of the
 * store's queue: the waiter of another instance that asked for it, queued there by its
 * refused attempt. That is its turn, with no race in it, so the local waiters queue
 * behind it at once ({@link #grantedElsewhere()}).
 * <p>
 * Otherwise freeing it is not enough: they hear of the release by the store's
 * announcement and only then send their acquire, while the local head is woken by the
 * releasing thread at once and would win nearly every time. So the local head holds back
 * until the announcement of that release has reached this instance too (as it reaches
 * them), or a short fallback has passed should it be lost; then it gives them one more
 * round trip before it competes ({@link #freed(long)}).
 * <p>
 * Either way, until one of its attempts finds the lock held elsewhere, a lock this
 * instance takes back is handed over locally no more while it is wanted elsewhere: should
 * an outside waiter lose the race all the same (or not be queued when a store that grants
 * freed the lock, having given up or not having been queued yet), it waits one critical
 * section, not a run of them.
 * <p>
 * Guarded by its own lock, held only for these fields, never across a store call.
 */
final class TurnForOthers {

	/**
	 * How long the local head waits at most for the announcement of the release that
	 * freed the lock for others (announcements can be lost).
	 * <p>
	 * 20 ms: far longer than an announcement takes to reach the instance whose hand-over
	 * released the lock (on one Redis, 2 instances x 8 threads on one lock, 5,800
	 * releases: 0.07 ms after the hand-over's reply at the median, 1.9 ms at p99, 6.3 ms
	 * at most, none missed), so it runs out only when the announcement was lost or the
	 * process stalled; it then costs the other instances their head start for one turn,
	 * never exclusion.
	 */
	private static final long ANNOUNCEMENT_FALLBACK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final ReentrantLock guard = new ReentrantLock();

	/**
	 * Hold-backs that ended by the fallback, the announcement not heard by then: of this
	 * engine, across the entries of all locks.
	 */
	private final LongAdder fallbacks;

	private final EngineRuntime runtime;

	/** Release announcements of this lock heard by this instance. */
	private long announcements;

	/**
	 * The number of announcements heard before the hand-over that freed the lock for
	 * others, until the local head competes again; -1 if none is pending.
	 */
	private long freedAfter = -1;

	/** When the local head stops waiting for the announcement of that release. */
	private long holdBackEndsNanos;

	/**
	 * Whether the lock was freed (or granted) for others and has not been seen held
	 * elsewhere since.
	 */
	private boolean owed;

	TurnForOthers() {
		this(new LongAdder());
	}

	TurnForOthers(LongAdder fallbacks) {
		this(fallbacks, EngineRuntime.system());
	}

	/**
	 * @param fallbacks counts the hold-backs that ended by the fallback
	 * @param runtime the engine's clock
	 */
	TurnForOthers(LongAdder fallbacks, EngineRuntime runtime) {
		this.fallbacks = fallbacks;
		this.runtime = runtime;
	}

	/** A release of this lock was announced to this instance. */
	void announced() {
		this.guard.lock();
		try {
			this.announcements++;
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * Noted before a hand-over that may free the lock for others is sent, so that its
	 * announcement can be told from the ones before.
	 * @return the number of release announcements heard so far
	 */
	long announcements() {
		this.guard.lock();
		try {
			return this.announcements;
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * A hand-over freed the lock for waiters of other instances, who compete for it once
	 * its release is announced: the local head holds back meanwhile.
	 * @param announcementsBefore {@link #announcements()} before the hand-over was sent
	 */
	void freed(long announcementsBefore) {
		this.guard.lock();
		try {
			this.freedAfter = announcementsBefore;
			this.holdBackEndsNanos = this.runtime.nanoTime() + ANNOUNCEMENT_FALLBACK_NANOS;
			this.owed = true;
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * A hand-over's release granted the lock to the head of the store's queue, a waiter
	 * of another instance: the lock is that waiter's, and no local waiter holds back for
	 * an announcement that could not make it free.
	 */
	void grantedElsewhere() {
		this.guard.lock();
		try {
			this.owed = true;
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * How long the local head still holds back before it may compete: until the
	 * announcement of the release that freed the lock for others arrived here, at most
	 * until the fallback.
	 * @return nanoseconds, 0 if it may compete now
	 */
	long holdBackNanos() {
		this.guard.lock();
		try {
			if (this.freedAfter < 0 || this.announcements > this.freedAfter) {
				return 0;
			}
			return Math.max(0, this.holdBackEndsNanos - this.runtime.nanoTime());
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * The local head is about to compete: whether the lock was freed for others since a
	 * local attempt last did, so that it gives them a round trip's head start first.
	 * Clears it.
	 */
	boolean takeHeadStart() {
		this.guard.lock();
		try {
			boolean pending = this.freedAfter >= 0;
			if (pending && this.announcements == this.freedAfter) {
				this.fallbacks.increment();
			}
			this.freedAfter = -1;
			return pending;
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * Whether the lock was freed (or granted) for others and no local attempt has found
	 * it held elsewhere since: then a hand-over does not keep it local while it is wanted
	 * elsewhere.
	 */
	boolean isOwed() {
		this.guard.lock();
		try {
			return this.owed;
		}
		finally {
			this.guard.unlock();
		}
	}

	/** A local attempt found the lock held elsewhere: the owed turn has come. */
	void heldElsewhere() {
		this.guard.lock();
		try {
			this.owed = false;
		}
		finally {
			this.guard.unlock();
		}
	}

}
