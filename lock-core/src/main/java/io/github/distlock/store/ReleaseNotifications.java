package io.github.distlock.store;

/**
 * A subscription to release announcements. Announcements may be lost (a reconnect, a
 * failover): waiters always keep a bounded fallback re-check, so the subscription only
 * has to make waiting fast, never correct.
 */
public interface ReleaseNotifications extends AutoCloseable {

	/**
	 * Makes sure releases of the lock {@code key} will be announced from now on, waiting
	 * for the subscription to be confirmed at most until {@code deadlineNanos} (a
	 * {@link System#nanoTime()} value). Called before each waiter's next attempt, so a
	 * release after that attempt is never missed, and again at every wake-up of the
	 * waiter (at least once a second while it waits). Cheap when already active.
	 * <p>
	 * A store that announces every release on one channel subscribes once and ignores the
	 * key; a store whose announcements travel per lock (sharded pub/sub on a Redis
	 * Cluster, where a channel lives in one hash slot) subscribes to what carries the
	 * releases of {@code key}, and may end that subscription by itself once no waiter
	 * asked for it for a while: there is no call saying a waiter left.
	 * @param key the key of the lock a waiter waits for
	 * @param deadlineNanos when to give up waiting for the confirmation
	 * @return whether releases will be announced; {@code false} makes waiters re-check
	 * often
	 */
	boolean ensureActive(String key, long deadlineNanos);

	/**
	 * Stops the announcements and frees what the subscription holds. Idempotent;
	 * afterwards {@link #ensureActive} answers {@code false}.
	 */
	@Override
	void close();

}
