package io.github.distlock.store;

/**
 * A subscription to release announcements. Announcements may be lost (a reconnect, a
 * failover): waiters always keep a bounded fallback re-check, so the subscription only
 * has to make waiting fast, never correct.
 */
public interface ReleaseNotifications extends AutoCloseable {

	/**
	 * Makes sure releases will be announced from now on, waiting for the subscription to
	 * be confirmed at most until {@code deadlineNanos} (a {@link System#nanoTime()}
	 * value). Called before each waiter's next attempt, so a release after that attempt
	 * is never missed. Cheap when already active.
	 * @param deadlineNanos when to give up waiting for the confirmation
	 * @return whether releases will be announced; {@code false} makes waiters re-check
	 * often
	 */
	boolean ensureActive(long deadlineNanos);

	/**
	 * Stops the announcements and frees what the subscription holds. Idempotent;
	 * afterwards {@link #ensureActive} answers {@code false}.
	 */
	@Override
	void close();

}
