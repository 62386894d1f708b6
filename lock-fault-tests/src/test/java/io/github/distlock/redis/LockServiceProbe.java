package io.github.distlock.redis;

/**
 * Reads the local bookkeeping of a {@link RedisLockService} that is not public, for fault tests that check it is
 * back to empty. Lives in the service's package (on the test class path only) instead of widening its API.
 */
public final class LockServiceProbe {

	private LockServiceProbe() {
	}

	/**
	 * Lock ids the service tracks, held or waited for; 0 when idle.
	 * @param service the lock service
	 * @return the number of tracked lock ids
	 */
	public static int trackedLockCount(RedisLockService service) {
		return service.trackedLockCount();
	}

}
