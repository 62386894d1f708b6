package io.github.distlock;

/**
 * A lock was lost while it was believed held: its lease ran out, renewal failed, or its
 * key was deleted or taken by another owner. The other owner's lock is never touched.
 */
public class LockLostException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String lockId;

	public LockLostException(String lockId, String message) {
		super(message);
		this.lockId = lockId;
	}

	/**
	 * The raw id of the lost lock.
	 * @return the lock id
	 */
	public String getLockId() {
		return this.lockId;
	}

}
