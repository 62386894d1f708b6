package io.github.distlock.core;

import java.util.concurrent.TimeUnit;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.HeldByOther;

/**
 * When an {@link AsyncAcquisition} tries again by itself after a refusal or a reply that
 * is not known, if no announcement wakes it first: the jittered fallback of
 * {@link Rechecks} after a refusal (shorter while releases are not announced to this
 * instance yet, whose subscription it opens on the first refusal), at once after a first
 * refusal that did not queue (the next attempt queues, so that the release grants it the
 * lock), and soon after a reply that is not known.
 */
final class AsyncRechecks {

	/** How long to wait before trying again after a reply that is not known. */
	private static final long UNKNOWN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final AsyncEngine engine;

	private final String key;

	private final long deadlineNanos;

	private volatile boolean subscribed;

	private boolean subscribing;

	AsyncRechecks(AsyncEngine engine, String key, long deadlineNanos) {
		this.engine = engine;
		this.key = key;
		this.deadlineNanos = deadlineNanos;
	}

	/**
	 * The delay until the next attempt after {@code reply}, never past the deadline.
	 * @param reply a refusal or a reply that is not known
	 * @param queued whether the attempt queued its owner in a store that queues
	 * @param queues whether the store queues refused owners
	 * @param nowNanos the time now
	 * @return the delay in nanoseconds
	 */
	long delayNanos(AcquireReply reply, boolean queued, boolean queues, long nowNanos) {
		long delay = UNKNOWN_RETRY_NANOS / 2 + this.engine.runtime.jitter(UNKNOWN_RETRY_NANOS);
		if (reply instanceof HeldByOther held) {
			subscribe();
			delay = (queues && !queued) ? 0
					: Rechecks.delayNanos(held.remainingLeaseMillis(), this.subscribed, this.engine.runtime);
		}
		return Math.min(delay, this.deadlineNanos - nowNanos);
	}

	/** Releases are announced to this instance once the subscription is active. */
	private void subscribe() {
		synchronized (this) {
			if (this.subscribing) {
				return;
			}
			this.subscribing = true;
		}
		this.engine.ensureSubscribed(this.key, this.deadlineNanos).thenAccept((active) -> this.subscribed = active);
	}

}
