package io.github.distlock.redis;

import io.github.distlock.core.LockEngine;

/**
 * Reads the local bookkeeping of a {@link io.github.distlock.core.LockEngine}, for fault
 * tests that check it is back to empty. The count is public on
 * {@link io.github.distlock.core.LockEngine#trackedLockCount()} now; this keeps the fault
 * tests' wording.
 */
public final class LockServiceProbe {

	private LockServiceProbe() {
	}

	/**
	 * Lock ids the service tracks, held or waited for; 0 when idle.
	 * @param service the lock service
	 * @return the number of tracked lock ids
	 */
	public static int trackedLockCount(LockEngine service) {
		return service.trackedLockCount();
	}

}
