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
	 * {@link LockStore#acquireFair}), by a store that did not say with which fencing
	 * token (a Redis client of an earlier version, during a rolling upgrade): that owner
	 * holds it now, with the store's short grant lease, and must claim it to learn its
	 * token.
	 * @param key the {@link LockStore#key(String) key} of the released lock
	 * @param owner the owner token the lock was granted to
	 */
	default void granted(String key, String owner) {
		released(key);
	}

	/**
	 * The lock was released and granted to the fair waiter {@code owner} (see
	 * {@link LockStore#acquireFair}) with {@code fencingToken}: that owner holds it now,
	 * with the lease it asked for when it was queued, and needs no further round trip to
	 * know it.
	 * @param key the {@link LockStore#key(String) key} of the released lock
	 * @param owner the owner token the lock was granted to
	 * @param fencingToken the token of the grant, greater than every earlier one of the
	 * lock
	 */
	default void granted(String key, String owner, long fencingToken) {
		granted(key, owner);
	}

}
