package io.github.distlock.core;

/**
 * An acquisition of the default mode on a store that grants
 * ({@link io.github.distlock.store.LockStore#grantLeaseMillis()} &gt; 0): one owner token
 * for all its attempts, under which its thread, while it is the local head, waits queued
 * in the store, so that the holder's release grants it the lock (see
 * {@link QueuedGrants}).
 */
final class QueuedAcquisition {

	/** The owner token of every attempt, and of the queue entry. */
	final String owner;

	/** When a grant announced to {@link #owner} ends at the latest. */
	final GrantWindow grants;

	/**
	 * Whether an attempt that queues was sent (it may have been applied): the queue entry
	 * is withdrawn when the acquisition ends without holding under {@link #owner}. Its
	 * thread's only.
	 */
	boolean queued;

	/**
	 * Set by the local hand-over that gave the lock to this acquisition's waiter: the
	 * store withdrew the queue entry with it.
	 */
	volatile boolean withdrawnByHandOver;

	/**
	 * Whether an attempt went unanswered (a copy of it may still be applied, see
	 * {@link QueuedGrants#ended}). Its thread's only.
	 */
	boolean hadUnanswered;

	/**
	 * Whether {@link #owner} was given up while the acquisition goes on: an attempt
	 * acquired under it only after its lease would have run out, and the lock was
	 * released. The store refuses a released token, so the later attempts queue nothing
	 * and bring fresh tokens, as on a store that does not grant. Its thread's only.
	 */
	private boolean spent;

	/**
	 * @param owner the owner token of every attempt
	 * @param leaseNanos the lease the acquisition asks for, which a grant to it carries
	 */
	QueuedAcquisition(String owner, long leaseNanos) {
		this.owner = owner;
		this.grants = new GrantWindow(leaseNanos);
	}

	/** Its owner token was released: the acquisition goes on without it. */
	void spend() {
		this.spent = true;
	}

	boolean isSpent() {
		return this.spent;
	}

}
