package io.github.distlock.store;

import java.time.Duration;

/**
 * The store wrote the lock for the owner the operation named (the acquirer, or the new
 * owner of a hand-over), but fewer replicas than required acknowledged that write within
 * the replication timeout, so a failover could lose it. The lock does not count as
 * acquired: the store has already removed it again (owner-checked), or, when that removal
 * failed, it expires with its lease. A hand-over answering this has freed the previous
 * owner's lock too.
 * <p>
 * Only stores that wait for replicas answer it (the Redis store with
 * {@code distributed-lock.replication.min-replicas} above 0).
 *
 * @param acknowledged how many replicas acknowledged the write in time
 * @param required how many were required
 * @param timeout how long the store waited for them
 */
public record NotReplicated(long acknowledged, int required, Duration timeout) implements AcquireReply, HandOverReply {

	/**
	 * Why the lock does not count, for an exception message.
	 * @return e.g. "0 of 1 required replicas acknowledged it within 1s"
	 */
	public String reason() {
		return this.acknowledged + " of " + this.required + " required replicas acknowledged it within "
				+ format(this.timeout);
	}

	private static String format(Duration duration) {
		long millis = duration.toMillis();
		return (millis % 1000 == 0) ? (millis / 1000) + "s" : millis + "ms";
	}

}
