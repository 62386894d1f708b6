package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

/**
 * The least a lock that does not poll can do: the floor's raw Lettuce {@code SET NX PX}
 * with a unique token and owner-checked delete ({@link SetNxLockClient}), but the release
 * script also {@code PUBLISH}es the key on one channel whenever it deleted, and a waiter
 * whose attempt was refused parks until a release message arrives, then attempts again.
 * Each instance subscribes once, on its own pub/sub connection, before its first attempt;
 * a message wakes every waiter of the instance, whatever key it names (the scenarios wait
 * on one key at a time). No lost wake-up: the instance's release count is read before
 * each attempt and waited on until it changes, and a waiter attempts again after 100 ms
 * at the latest, so a lost message (or a lease that ran out unreleased) costs that much,
 * never a hang. No queue, no grant (the woken waiter still needs its {@code SET NX}), no
 * renewal, no fencing: the reference that separates what not polling costs on a machine
 * from what a lock adds to it. On one {@code redis-server}.
 */
final class FloorPubSubLockClient extends SetNxLockClient {

	static final String CHANNEL = "floor-pubsub:released";

	private static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) "
			+ "redis.call('publish', '" + CHANNEL + "', KEYS[1]) return 1 end return 0";

	private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final Object monitor = new Object();

	/** Release messages received; written under {@link #monitor}. */
	private volatile long releases;

	private FloorPubSubLockClient(StatefulRedisConnection<String, String> connection,
			StatefulRedisPubSubConnection<String, String> messages, Runnable close, Duration waitTime) {
		super("floor-pubsub:", connection.sync(), RELEASE, close, waitTime);
		messages.addListener(new RedisPubSubAdapter<>() {

			@Override
			public void message(String channel, String key) {
				released();
			}

		});
		messages.sync().subscribe(CHANNEL);
	}

	/** A new instance on one {@code redis-server}, subscribed when it is returned. */
	static FloorPubSubLockClient on(RedisServer redis, Duration waitTime) {
		RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		StatefulRedisConnection<String, String> connection = client.connect();
		StatefulRedisPubSubConnection<String, String> messages = client.connectPubSub();
		return new FloorPubSubLockClient(connection, messages, () -> {
			messages.close();
			connection.close();
			client.shutdown();
		}, waitTime);
	}

	/**
	 * On the pub/sub connection's event loop: counts the release and wakes the waiters.
	 */
	private void released() {
		synchronized (monitor) {
			releases++;
			monitor.notifyAll();
		}
	}

	@Override
	long releasesSeen() {
		return releases;
	}

	/** Parks until a release message arrives, 100 ms or the deadline, the earliest. */
	@Override
	boolean awaitRelease(long seen, long deadlineNanos) {
		long until = Math.min(deadlineNanos, System.nanoTime() + RECHECK_NANOS);
		synchronized (monitor) {
			long left;
			while (releases == seen && (left = until - System.nanoTime()) > 0) {
				try {
					TimeUnit.NANOSECONDS.timedWait(monitor, left);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					return false;
				}
			}
		}
		return true;
	}

}
