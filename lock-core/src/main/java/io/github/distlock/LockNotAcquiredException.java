package io.github.distlock;

import org.jspecify.annotations.Nullable;

/**
 * A lock was not acquired within its wait time, or waiting was interrupted.
 */
public class LockNotAcquiredException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String lockId;

	public LockNotAcquiredException(String lockId, String message) {
		this(lockId, message, null);
	}

	public LockNotAcquiredException(String lockId, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.lockId = lockId;
	}

	/**
	 * The raw id of the lock that was not acquired.
	 * @return the lock id
	 */
	public String getLockId() {
		return this.lockId;
	}

}
