package io.github.distlock.benchmarks;

import io.github.distlock.DistributedLock;
import io.github.distlock.OnLockFailure;

/**
 * The annotated bean behind {@code distlock-annotation}: the lock is taken by the Spring
 * proxy around it.
 */
public class LockedActions {

	/**
	 * Runs {@code action} holding lock {@code bench:<lockId>}.
	 * @return {@code false} (skipped, not run) when the lock was not acquired within the
	 * wait time
	 */
	@DistributedLock(name = "bench", key = "#lockId", waitTime = "${benchmark.wait-time}",
			onFailure = OnLockFailure.SKIP)
	public boolean run(String lockId, Runnable action) {
		action.run();
		return true;
	}

}
