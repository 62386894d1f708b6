package io.github.distlock.context;

import org.springframework.context.ApplicationEvent;

/**
 * Published when this instance learns that a lock it believed held is lost: renewal or
 * {@link LockHandle#extend extend} found the key gone or owned by another instance, or
 * renewal could not complete before the lease ran out. The holder's
 * {@link LockHandle#isHeld()} is already {@code false}, and its
 * {@link LockHandle#close()} will throw {@link LockLostException}.
 * <p>
 * Listeners run on a thread of the lock service of their own, never on the watchdog's or
 * the holder's: one event after the other, in the order the losses were found. A slow
 * listener delays the later events, never a renewal; an exception from a listener is
 * logged.
 */
public class LockLostEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final String lockId;

	private final long fencingToken;

	private final String reason;

	public LockLostEvent(Object source, String lockId, long fencingToken, String reason) {
		super(source);
		this.lockId = lockId;
		this.fencingToken = fencingToken;
		this.reason = reason;
	}

	/**
	 * The raw id of the lost lock.
	 * @return the lock id
	 */
	public String getLockId() {
		return this.lockId;
	}

	/**
	 * The fencing token of the lost hold; writes carrying it should now be rejected.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Why the lock is considered lost.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

}
