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

	/**
	 * The lock was released and granted to the fair waiter {@code owner} (see
	 * {@link LockStore#acquireFair}): that owner holds it now, with the store's short
	 * grant lease, until it claims it.
	 * @param key the {@link LockStore#key(String) key} of the released lock
	 * @param owner the owner token the lock was granted to
	 */
	default void granted(String key, String owner) {
		released(key);
	}

}
