package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.util.concurrent.TimeUnit;

/**
 * When a waiter checks the store again by itself: a jittered fallback, in case the
 * release announcement it waits for never comes, and at the latest when the holder's
 * lease runs out.
 */
final class Rechecks {

	/** Fallback re-check of a waiter when releases are announced. */
	private static final long SUBSCRIBED_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Re-check of a waiter when no release announcements can be received. */
	private static final long UNSUBSCRIBED_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private Rechecks() {
	}

	/**
	 * The delay until the next re-check.
	 * @param holderTtlMillis how long the holder's lease still ran at the last attempt,
	 * or -1 if not known
	 * @param subscribed whether releases of the lock are announced to this instance
	 * @param runtime the jitter's source
	 * @return the delay in nanoseconds
	 */
	static long delayNanos(long holderTtlMillis, boolean subscribed, EngineRuntime runtime) {
		long bound = subscribed ? SUBSCRIBED_RECHECK_NANOS : UNSUBSCRIBED_RECHECK_NANOS;
		long delay = bound / 2 + runtime.jitter(bound / 2);
		if (holderTtlMillis >= 0) {
			// The holder's lease ends then at the latest, and a holder that died
			// announces nothing.
			long untilExpiry = TimeUnit.MILLISECONDS.toNanos(holderTtlMillis);
			delay = Math.min(delay, untilExpiry + runtime.jitter(untilExpiry / 10) + 100_000);
		}
		return delay;
	}

}
