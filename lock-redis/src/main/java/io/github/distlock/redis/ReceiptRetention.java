package io.github.distlock.redis;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * How long a lock's release receipt lives ({@link LockScripts#RECEIPT}): twice the
 * client's command timeout, at least 2 s, at most the fencing retention.
 * <p>
 * The receipt answers a command that comes twice: a release or hand-over Lettuce re-sends
 * after a reconnect because its reply was lost, and an acquire applied after its
 * acquisition ended. A client re-sends a command only while it still waits for its reply,
 * so within its command timeout; twice that leaves room for a copy written just before
 * the timeout. Keeping each receipt longer would leave one key per released id behind for
 * nothing (100,000 releases left 100,000 receipts for the whole minute of the fencing
 * retention). With the command timeout unknown (a connection factory other than
 * Lettuce's), or not set (Lettuce's default is 60 s), the receipt lives for the fencing
 * retention, as before.
 */
final class ReceiptRetention {

	private static final long MIN_MILLIS = 2_000;

	private ReceiptRetention() {
	}

	/** The receipt's life in ms for the locks on {@code factory}. */
	static long of(RedisConnectionFactory factory, long fencingRetentionMillis) {
		Duration timeout = commandTimeout(factory);
		if (timeout == null) {
			return fencingRetentionMillis;
		}
		long twice = 2 * Math.min(timeout.toMillis(), Long.MAX_VALUE / 4);
		return Math.min(fencingRetentionMillis, Math.max(MIN_MILLIS, twice));
	}

	private static @Nullable Duration commandTimeout(RedisConnectionFactory factory) {
		// Lettuce's classes load only when the factory is Lettuce's.
		return factory.getClass().getName().startsWith("org.springframework.data.redis.connection.lettuce.")
				? lettuceTimeout(factory) : null;
	}

	private static @Nullable Duration lettuceTimeout(RedisConnectionFactory factory) {
		return (factory instanceof LettuceConnectionFactory lettuce)
				? lettuce.getClientConfiguration().getCommandTimeout() : null;
	}

}
