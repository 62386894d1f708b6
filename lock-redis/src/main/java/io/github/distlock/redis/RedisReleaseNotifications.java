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

	/**
	 * Whether releases are announced per lock by sharded pub/sub: a Redis Cluster reached
	 * with Lettuce. Lettuce's classes load only when the factory is Lettuce's.
	 */
	static boolean sharded(RedisConnectionFactory connectionFactory) {
		return connectionFactory.getClass().getName().startsWith("org.springframework.data.redis.connection.lettuce.")
				&& ShardedReleaseSubscription.isLettuceCluster(connectionFactory);
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
	 * line feed (which an encoded key never contains), the owner token, a line feed and
	 * the grant's fencing token. A grant without a (readable) token, as clients of an
	 * earlier version announce it during a rolling upgrade, only wakes the waiter, which
	 * then claims the lock.
	 */
	static void announced(ReleaseListener listener, String message) {
		int separator = message.indexOf('\n');
		if (separator < 0) {
			listener.released(message);
			return;
		}
		String key = message.substring(0, separator);
		String grant = message.substring(separator + 1);
		int tokenSeparator = grant.indexOf('\n');
		long fencingToken = (tokenSeparator < 0) ? 0 : fencingToken(grant.substring(tokenSeparator + 1));
		if (fencingToken > 0) {
			listener.granted(key, grant.substring(0, tokenSeparator), fencingToken);
		}
		else {
			listener.granted(key, (tokenSeparator < 0) ? grant : grant.substring(0, tokenSeparator));
		}
	}

	/** The announced token, or 0 if it is not a positive number. */
	private static long fencingToken(String text) {
		try {
			return Math.max(Long.parseLong(text), 0);
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

}
