package io.github.distlock.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * One application instance of a lock implementation: its own client, connections and
 * local state. Several threads may use one instance at once; contention between instances
 * is modelled with several instances, never with threads sharing one, because a JVM-local
 * lock in front of Redis would hide the real cost.
 */
interface LockClient extends AutoCloseable {

	/**
	 * Runs {@code action} while holding {@code lockId}, waiting for the lock up to the
	 * wait time the instance was created with.
	 * @return {@code false} if the lock was not acquired in time (the action did not run)
	 */
	boolean tryRunLocked(String lockId, Runnable action);

	@Override
	void close();

	/**
	 * {@link #tryRunLocked} for the libraries whose locks are {@link Lock}s (Redisson,
	 * Spring Integration).
	 * @return {@code false} if the lock was not acquired within {@code waitMillis} or the
	 * wait was interrupted
	 */
	static boolean tryRunLocked(Lock lock, long waitMillis, Runnable action) {
		try {
			if (!lock.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
				return false;
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return false;
		}
		try {
			action.run();
		}
		finally {
			lock.unlock();
		}
		return true;
	}

}
