package io.github.distlock.store;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When an {@link InMemoryLockStore} forgets what nobody needs any more: the keys nobody
 * holds whose fencing retention has passed, and the dead entries of its fair queues; at
 * most once per second of the store's clock, or once per retention if shorter, so that
 * ids acquired once do not accumulate.
 */
final class InMemoryPurge {

	private static final long MAX_INTERVAL_MILLIS = 1000;

	private final long intervalMillis;

	private final AtomicLong nextMillis;

	InMemoryPurge(long fencingRetentionMillis, long nowMillis) {
		this.intervalMillis = Math.min(fencingRetentionMillis, MAX_INTERVAL_MILLIS);
		this.nextMillis = new AtomicLong(nowMillis + this.intervalMillis);
	}

	/**
	 * Forgets the keys nobody holds whose fencing retention has passed, at most once per
	 * interval.
	 * @return whether it ran
	 */
	boolean runIfDue(long nowMillis, ConcurrentHashMap<String, InMemoryLockState> states, InMemoryFairQueues queues) {
		long due = this.nextMillis.get();
		if (nowMillis < due || !this.nextMillis.compareAndSet(due, nowMillis + this.intervalMillis)) {
			return false;
		}
		// Entries are immutable, so each is removed only if unchanged since it was
		// judged.
		states.values().removeIf((state) -> state.forgettable(nowMillis));
		queues.purge(states, nowMillis);
		return true;
	}

}
