package io.github.distlock.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * What this instance knows about one lock key: its local holder and the local waiters, in
 * arrival order. Only the head waiter competes in Redis, and only while no live local
 * holder exists; the others wait for a hand-over, so N local waiters cost one Redis
 * attempt, not N.
 * <p>
 * The guard is held only for in-memory state changes, never across a Redis call.
 */
final class LockEntry {

	final String key;

	final String lockId;

	private final ReentrantLock guard = new ReentrantLock();

	private final ArrayDeque<Waiter> waiters = new ArrayDeque<>(4);

	private volatile @Nullable HeldLock holder;

	/**
	 * Holds handed to callers and not yet closed, held or lost: normally just the holder,
	 * more only while threads whose lock was lost have yet to close it. Re-entry looks
	 * here, so that a thread whose lock was lost never re-enters a lock another local
	 * thread took meanwhile.
	 */
	private final ArrayList<HeldLock> unreleased = new ArrayList<>(1);

	/** Consecutive hand-overs while the lock was flagged contended from outside. */
	private int handOversSinceRedis;

	/**
	 * A waiter was picked for a hand-over whose outcome is not known yet: the lock is
	 * still this instance's, although its holder let go.
	 */
	private volatile boolean handingOver;

	/** The turn owed to waiters of other instances after a hand-over freed the lock. */
	final TurnForOthers turnForOthers;

	/**
	 * The threads that may be queued in the store for this lock, by owner token: fair
	 * waiters (which never queue locally) and, with a store that grants, the local
	 * waiters of the default mode.
	 */
	final QueuedWaiters queuedWaiters = new QueuedWaiters();

	/**
	 * Threads in tryLock or holding, counted to drop idle entries; guarded by the entry
	 * map.
	 */
	private int users;

	LockEntry(String key, String lockId) {
		this(key, lockId, new LongAdder());
	}

	/**
	 * @param key the store key
	 * @param lockId the lock id
	 * @param announcementFallbacks counts the hold-backs of {@link TurnForOthers} that
	 * ended by the fallback
	 */
	LockEntry(String key, String lockId, LongAdder announcementFallbacks) {
		this.key = key;
		this.lockId = lockId;
		this.turnForOthers = new TurnForOthers(announcementFallbacks);
	}

	/**
	 * One more thread tries to lock or holds this lock. Called under the entry map's
	 * compute, which guards the count.
	 */
	void enter() {
		this.users++;
	}

	/**
	 * A thread that {@linkplain #enter() entered} is done with this lock. Called under
	 * the entry map's compute.
	 * @return whether no thread uses the entry any more, so that it can be dropped
	 */
	boolean leave() {
		return --this.users == 0;
	}

	@Nullable HeldLock holder() {
		return this.holder;
	}

	boolean hasLiveHolder() {
		HeldLock current = this.holder;
		return current != null && current.isHeld();
	}

	/**
	 * Whether a waiter was picked for a hand-over still in flight: the lock stays this
	 * instance's, so no other local thread competes for it in the store meanwhile.
	 */
	boolean isHandingOver() {
		return this.handingOver;
	}

	/**
	 * No live local holder, no hand-over in flight and no local waiter ahead: a newcomer
	 * may go straight to Redis.
	 */
	boolean isFree() {
		return !hasLiveHolder() && !this.handingOver && !hasWaiters();
	}

	void acquiredFromRedis(HeldLock held) {
		this.guard.lock();
		try {
			this.holder = held;
			this.unreleased.add(held);
			this.handOversSinceRedis = 0;
		}
		finally {
			this.guard.unlock();
		}
	}

	void handedOver(HeldLock held) {
		this.guard.lock();
		try {
			this.holder = held;
			this.unreleased.add(held);
			this.handOversSinceRedis++;
			this.handingOver = false;
		}
		finally {
			this.guard.unlock();
		}
	}

	int handOversSinceRedis() {
		return this.handOversSinceRedis;
	}

	/** The hold of {@code thread} that it has not closed yet, held or lost, if any. */
	@Nullable HeldLock unreleasedHoldOf(Thread thread) {
		this.guard.lock();
		try {
			for (HeldLock held : this.unreleased) {
				if (held.owner == thread) {
					return held;
				}
			}
			return null;
		}
		finally {
			this.guard.unlock();
		}
	}

	boolean isUnreleased(HeldLock held) {
		this.guard.lock();
		try {
			return this.unreleased.contains(held);
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * Its owner closed {@code held} (or it was undone): it can no longer be re-entered.
	 */
	void holdClosed(HeldLock held) {
		this.guard.lock();
		try {
			this.unreleased.remove(held);
		}
		finally {
			this.guard.unlock();
		}
	}

	/**
	 * Forgets {@code held} as the local holder (unless another one replaced it) and wakes
	 * the head.
	 */
	void holderGone(HeldLock held) {
		this.guard.lock();
		try {
			if (this.holder == held) {
				this.holder = null;
			}
		}
		finally {
			this.guard.unlock();
		}
		signalHead();
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
	 * The waiter's own attempt in Redis failed (an exception or error): it leaves the
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
			// The next one may have to compete in Redis now.
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

	/** The store announced a release of this lock: wakes the head. */
	void releaseAnnounced() {
		this.turnForOthers.announced();
		this.queuedWaiters.signalAll();
		signalHead();
	}

	/**
	 * The store announced that this lock was released and granted to the queued waiter
	 * {@code owner}, without its token: wakes that waiter if it is one of this instance's
	 * (it claims the lock).
	 */
	void grantAnnounced(String owner) {
		this.turnForOthers.announced();
		this.queuedWaiters.granted(owner);
		signalHead();
	}

	/**
	 * The store announced that this lock was released and granted to the queued waiter
	 * {@code owner} with {@code fencingToken}: that waiter, if it is one of this
	 * instance's, holds it.
	 */
	void grantAnnounced(String owner, long fencingToken) {
		this.turnForOthers.announced();
		this.queuedWaiters.granted(owner, fencingToken);
		// A local head holding back for this announcement (TurnForOthers) competes now:
		// refused, it queues and flags the lock, so that the instance granted it takes
		// its turn and not a run.
		signalHead();
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
		this.queuedWaiters.signalAll();
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
