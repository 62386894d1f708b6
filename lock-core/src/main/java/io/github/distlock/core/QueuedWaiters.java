package io.github.distlock.core;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The threads of this instance that may be queued in the store for one lock (every waiter
 * in fair mode; in the default mode the waiters of a store that grants, of which only the
 * local head queues), by the owner token they are queued under, so that the announcement
 * of a grant reaches exactly the thread it was granted to.
 */
final class QueuedWaiters {

	private final ConcurrentHashMap<String, Waiter> byOwner = new ConcurrentHashMap<>(4);

	void add(String owner, Waiter waiter) {
		this.byOwner.put(owner, waiter);
	}

	void remove(String owner) {
		this.byOwner.remove(owner);
	}

	/** The lock was granted to {@code owner}: wakes its thread, if it is one of ours. */
	void granted(String owner) {
		Waiter waiter = this.byOwner.get(owner);
		if (waiter != null) {
			waiter.signal();
		}
	}

	/**
	 * The lock was granted to {@code owner} with {@code fencingToken}: tells its thread,
	 * if it is one of ours, which then holds the lock without claiming it.
	 */
	void granted(String owner, long fencingToken) {
		Waiter waiter = this.byOwner.get(owner);
		if (waiter != null) {
			waiter.grantAnnounced(fencingToken);
		}
	}

	void signalAll() {
		this.byOwner.values().forEach(Waiter::signal);
	}

}
