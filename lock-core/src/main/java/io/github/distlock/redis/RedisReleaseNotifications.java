package io.github.distlock.redis;

import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The release notifications of a {@link RedisLockStore}: the one release channel
 * ({@link ReleaseSubscription}), or the lock's own shard channels on a Redis Cluster
 * ({@link ShardedReleaseSubscription}), with each message told to the listener as a
 * release or as a grant to a fair waiter.
 */
final class RedisReleaseNotifications {

	private RedisReleaseNotifications() {
	}

	static ReleaseNotifications subscribe(RedisConnectionFactory connectionFactory, String releaseChannel,
			boolean sharded, ReleaseListener listener) {
		if (sharded) {
			ShardedReleaseSubscription subscription = new ShardedReleaseSubscription(connectionFactory,
					(message) -> announced(listener, message));
			return new ReleaseNotifications() {

				@Override
				public boolean ensureActive(String key, long deadlineNanos) {
					return subscription.ensureActive(key, deadlineNanos);
				}

				@Override
				public void close() {
					subscription.close();
				}

			};
		}
		ReleaseSubscription subscription = new ReleaseSubscription(connectionFactory, releaseChannel,
				(message) -> announced(listener, message));
		return new ReleaseNotifications() {

			@Override
			public boolean ensureActive(String key, long deadlineNanos) {
				return subscription.ensureActive(deadlineNanos);
			}

			@Override
			public void close() {
				subscription.close();
			}

		};
	}

	/**
	 * A release announcement is the lock's key; a grant to a fair waiter is the key, a
	 * line feed (which an encoded key never contains) and the owner token.
	 */
	static void announced(ReleaseListener listener, String message) {
		int separator = message.indexOf('\n');
		if (separator < 0) {
			listener.released(message);
		}
		else {
			listener.granted(message.substring(0, separator), message.substring(separator + 1));
		}
	}

}
