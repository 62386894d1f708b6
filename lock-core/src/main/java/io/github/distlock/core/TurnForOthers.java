package io.github.distlock.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The turn this instance owes waiters of other instances for one lock, once a local
 * hand-over freed the lock for them (it was wanted elsewhere and had stayed local a few
 * times in a row).
 * <p>
 * Freeing it is not enough: they hear of the release by the store's announcement and only
 * then send their acquire, while the local head is woken by the releasing thread at once
 * and would win nearly every time. So the local head holds back until the announcement of
 * that release has reached this instance too (as it reaches them), or a short fallback
 * has passed should it be lost; then it gives them one more round trip before it
 * competes. And until one of its attempts finds the lock held elsewhere, a lock this
 * instance takes back is handed over locally no more while it is wanted elsewhere: should
 * an outside waiter lose the race all the same, it waits one critical section, not a run
 * of them.
 * <p>
 * Guarded by its own lock, held only for these fields, never across a store call.
 */
final class TurnForOthers {

	/**
	 * How long the local head waits at most for the announcement of the release that
	 * freed the lock for others (announcements can be lost).
	 * <p>
	 * 20 ms, not the 50 ms of an unsubscribed waiter's re-check: since releases across
	 * instances are grants (issue 15), the contended benchmark (2 instances x 8 threads,
	 * one lock) shows the local head sitting out this fallback in about 1 % of its
	 * acquisitions — its wait p99 was 52 ms with 50 ms here, 9.7 ms (max 17) with 20 ms,
	 * against 5.5 ms before grants. Which announcement it misses is not found yet; a
	 * shorter fallback bounds the stall without polling (it runs only after this instance
	 * freed the lock for others).
	 */
	private static final long ANNOUNCEMENT_FALLBACK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final ReentrantLock guard = new ReentrantLock();

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
	 * Whether the lock was freed for others and has not been seen held elsewhere since.
	 */
	private boolean owed;

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
	 * A hand-over freed the lock for waiters of other instances.
	 * @param announcementsBefore {@link #announcements()} before the hand-over was sent
	 */
	void freed(long announcementsBefore) {
		this.guard.lock();
		try {
			this.freedAfter = announcementsBefore;
			this.holdBackEndsNanos = System.nanoTime() + ANNOUNCEMENT_FALLBACK_NANOS;
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
			return Math.max(0, this.holdBackEndsNanos - System.nanoTime());
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
			this.freedAfter = -1;
			return pending;
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * Whether the lock was freed for others and no local attempt has found it held
	 * elsewhere since: then a hand-over does not keep it local while it is wanted
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
