package io.github.distlock.core;

import io.github.distlock.runtime.TaskPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.store.Acquired;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * One ownership of a lock in the store by one thread of this instance, shared by the
 * nested (reentrant) handles of that thread.
 * <p>
 * The local deadline is measured with {@link System#nanoTime()} from before the command
 * that set the lease was sent, so it never ends later than the key's expiry in the store:
 * a holder that was paused past its lease sees {@link #isHeld()} {@code false} on resume
 * without a round trip.
 * <p>
 * Every command that sets the lease (renewal, {@code extend}, the expiry of a release
 * with a minimum hold time) is sent and its reply applied under {@link #lockLease()}, one
 * at a time: the last deadline set is that of the last command the store ran, so an
 * older, longer lease can never overwrite a newer, shorter one.
 * <p>
 * The fencing token may be issued on the holder's first read: see
 * {@link FencingTokenReads}.
 */
final class HeldLock implements RenewalSweep.Swept {

	enum State {

		HELD, RELEASED, LOST

	}

	final LockEntry entry;

	final String ownerToken;

	/** The fencing token, {@link Acquired#TOKEN_ON_READ} until issued. */
	private volatile long fencingToken;

	final Thread owner;

	/**
	 * Lease the watchdog renews an auto-renewed lock with (changed by {@code extend}), or
	 * the fixed lease.
	 */
	private volatile long leaseNanos;

	final boolean autoRenewed;

	final long acquiredAtNanos;

	private volatile long deadlineNanos;

	/** Held across each command that sets the lease and the application of its reply. */
	private final ParkingLock leaseChange;

	/**
	 * Incremented when {@code extend} changes the lease; a renewal of an older one is
	 * stale.
	 */
	private volatile int renewalGeneration;

	private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

	private volatile @Nullable String lostReason;

	private volatile TaskPool.@Nullable Scheduled renewal;

	/** When the {@link RenewalSweep} renews it, for which generation. */
	private final RenewalSweep.DueTime sweepDueTime = new RenewalSweep.DueTime();

	/** Whether the last renewal attempt failed (and the lease is running out). */
	volatile boolean renewalFailing;

	/** Nested holds on the owner thread; 1 for the outermost. */
	private final AtomicInteger depth = new AtomicInteger(1);

	/**
	 * Whether it was acquired in fair mode: then it is never handed over locally, its
	 * release grants it to the head of the store's queue.
	 */
	volatile boolean fair;

	/**
	 * The static lock name the holder acquired it under, if it knew one (for operators).
	 */
	volatile @Nullable String name;

	/** The observation of this hold, while Micrometer observes it. */
	volatile @Nullable Observation holdObservation;

	HeldLock(LockEntry entry, String ownerToken, long fencingToken, Thread owner, long leaseNanos, boolean autoRenewed,
			long acquiredAtNanos) {
		this.entry = entry;
		this.ownerToken = ownerToken;
		this.fencingToken = fencingToken;
		this.owner = owner;
		this.leaseNanos = leaseNanos;
		this.autoRenewed = autoRenewed;
		this.acquiredAtNanos = acquiredAtNanos;
		this.deadlineNanos = acquiredAtNanos + leaseNanos;
		this.leaseChange = new ParkingLock(entry.runtime);
	}

	/**
	 * The fencing token if it is known (came with the acquisition, or was read), else 0:
	 * for observations, events and the actuator, which never issue one.
	 */
	long knownFencingToken() {
		return this.fencingToken;
	}

	/** The token issued on the first read. Only under {@link #lockLease()}. */
	void tokenIssued(long fencingToken) {
		this.fencingToken = fencingToken;
	}

	/**
	 * A lock the store granted to {@code ownerToken} with the lease asked for,
	 * {@code leaseNanos}, and announced, held at once: its local deadline is
	 * {@code grantDeadlineNanos}, never later than the end of that lease in the store.
	 * @param grantedAtNanos when the announcement was taken (counts as the acquisition,
	 * for the minimum hold time: it is not earlier than the grant)
	 * @param grantDeadlineNanos the conservative end of the grant's lease
	 */
	static HeldLock granted(LockEntry entry, String ownerToken, long fencingToken, Thread owner, long leaseNanos,
			boolean autoRenewed, long grantedAtNanos, long grantDeadlineNanos) {
		HeldLock held = new HeldLock(entry, ownerToken, fencingToken, owner, leaseNanos, autoRenewed, grantedAtNanos);
		held.deadlineNanos = grantDeadlineNanos;
		return held;
	}

	/** Nested holds on the owner thread; 1 for the outermost, 0 once given back. */
	int depth() {
		return this.depth.get();
	}

	/** The owner thread locks it again (a nested hold). */
	void reenter() {
		this.depth.incrementAndGet();
	}

	/**
	 * The owner thread closes one nested hold.
	 * @return the holds left; 0 when the outermost one was closed
	 */
	int exitOne() {
		return this.depth.decrementAndGet();
	}

	/**
	 * The lock is given back without a handle (its waiter was interrupted): no hold
	 * remains.
	 */
	void dropHolds() {
		this.depth.set(0);
	}

	boolean isHeld() {
		return this.state.get() == State.HELD && this.entry.runtime.nanoTime() - this.deadlineNanos < 0;
	}

	State state() {
		return this.state.get();
	}

	@Override
	public boolean isActive() {
		return this.state.get() == State.HELD;
	}

	/**
	 * A lease reset whose command was sent at {@code sentAtNanos} succeeded. Only under
	 * {@link #lockLease()}.
	 */
	void leaseResetAt(long sentAtNanos, long leaseNanos) {
		this.deadlineNanos = sentAtNanos + leaseNanos;
	}

	/**
	 * A lease reset sent at {@code sentAtNanos} failed, and the store may still run it
	 * (e.g. replayed after a reconnect): the deadline ends no later than the one it would
	 * set. Only under {@link #lockLease()}.
	 */
	void leaseResetMayApply(long sentAtNanos, long leaseNanos) {
		long deadline = sentAtNanos + leaseNanos;
		if (deadline - this.deadlineNanos < 0) {
			this.deadlineNanos = deadline;
		}
	}

	long leaseNanos() {
		return this.leaseNanos;
	}

	/**
	 * The watchdog renews with {@code leaseNanos} from now on; renewals scheduled for the
	 * old lease become stale. Only under {@link #lockLease()}.
	 * @return the new renewal generation
	 */
	synchronized int leaseChanged(long leaseNanos) {
		this.leaseNanos = leaseNanos;
		TaskPool.Scheduled stale = this.renewal;
		this.renewal = null;
		if (stale != null) {
			stale.cancel();
		}
		return ++this.renewalGeneration;
	}

	int renewalGeneration() {
		return this.renewalGeneration;
	}

	/**
	 * Takes the right to send a command that sets the lease and apply its reply, waiting
	 * for the one in flight (at most one round trip), but not past the local deadline: a
	 * lease that ran out meanwhile cannot be reset anyway. Uninterruptible; the interrupt
	 * is kept.
	 * @return {@code false} if the deadline passed first
	 */
	boolean lockLease() {
		return this.leaseChange.tryLock(Math.max(remainingNanos(), 0));
	}

	/** Takes the right to set the lease if nobody has it now, else answers false. */
	boolean tryLockLeaseNow() {
		return this.leaseChange.tryLock(0);
	}

	/** Takes the right to set the lease, however long the command in flight takes. */
	void lockLeaseUninterruptibly() {
		this.leaseChange.lock();
	}

	void unlockLease() {
		this.leaseChange.unlock();
	}

	long remainingNanos() {
		return this.deadlineNanos - this.entry.runtime.nanoTime();
	}

	/**
	 * How long from now until a third of its first lease has passed, counted from the
	 * start of that lease ({@link #remainingNanos()} before {@code leaseNanos}): for a
	 * lock held by a grant, from the earliest moment it can have been granted. Negative
	 * when due already.
	 */
	long firstRenewalDueNanos() {
		return remainingNanos() - this.leaseNanos + LockRenewer.interval(this);
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
	 * Ends the hold; renewal stops at once. A hold already marked lost (by renewal or by
	 * the service's shutdown) stays lost.
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
		if (this.entry.runtime.nanoTime() - this.deadlineNanos >= 0) {
			return "lease expired before it was renewed or released";
		}
		return this.lostReason;
	}

	@Override
	public synchronized void renewal(TaskPool.Scheduled renewal, int generation) {
		if (generation != this.renewalGeneration) {
			renewal.cancel();
			return;
		}
		this.renewal = renewal;
		if (this.state.get() != State.HELD) {
			renewal.cancel();
		}
	}

	@Override
	public synchronized boolean sweepDue(long dueNanos, int generation) {
		return this.sweepDueTime.set(dueNanos, generation);
	}

	@Override
	public synchronized int claimSweepRenewal(long horizonNanos) {
		return this.sweepDueTime.claim(horizonNanos);
	}

	@Override
	public synchronized boolean sweepRenewalPending() {
		return this.sweepDueTime.pending();
	}

	private void cancelRenewal() {
		TaskPool.Scheduled scheduled = this.renewal;
		if (scheduled != null) {
			scheduled.cancel();
		}
	}

}
