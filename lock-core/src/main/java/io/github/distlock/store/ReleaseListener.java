package io.github.distlock.store;

/**
 * Receives the announcement that a lock somebody was waiting for has been released (or
 * handed over to another instance's waiter), so that waiters wake up instead of polling.
 */
@FunctionalInterface
public interface ReleaseListener {

	/**
	 * @param key the {@link LockStore#key(String) key} of the released lock
	 */
	void released(String key);

}
