package io.github.distlock.test;

/**
 * One thing that happened to a lock of the application under test, as the store saw it.
 *
 * @param kind what happened
 * @param lockId the lock id
 * @param fencingToken the fencing token of the hold it happened to
 */
public record LockRecord(Kind kind, String lockId, long fencingToken) {

	/**
	 * What happened to the lock.
	 */
	public enum Kind {

		/**
		 * Acquired in the store, or handed over to a waiting thread of the application (a
		 * reentrant acquisition does not reach the store and is not recorded).
		 */
		ACQUIRED,

		/** Released in the store by its holder, or handed over to a waiting thread. */
		RELEASED,

		/**
		 * Found gone by its holder: a renewal, {@code extend} or release found the lock
		 * expired or owned by another instance.
		 */
		LOST

	}

	@Override
	public String toString() {
		return this.kind + " " + this.lockId + " (fencing token " + this.fencingToken + ")";
	}

}
