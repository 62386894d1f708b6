package io.github.distlock.benchmarks;

import java.time.Duration;

import io.github.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * What one Redis round trip costs on this machine while everything is busy and after
 * everything idled: a plain {@code PING} on a fresh Lettuce connection, back to back,
 * then each after the caller slept as long as the hand-over's holder keeps the lock. On a
 * machine where waking idle threads and processes is slow, the second is several times
 * the first, and a waiter that parks (every lock that does not poll) pays it where the
 * spinning {@code floor} does not: the line of the run's environment that says so.
 */
final class RoundTrips {

	private RoundTrips() {
	}

	/**
	 * The p50 of {@code pings} round trips back to back and of {@code pings} after
	 * {@code idle} each (after as many back to back to warm up), described for the run's
	 * environment.
	 */
	static String measure(RedisServer server, int pings, Duration idle) {
		RedisClient client = RedisClient.create(RedisURI.create(server.host(), server.port()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			RedisCommands<String, String> redis = connection.sync();
			Latencies hot = new Latencies();
			Latencies rested = new Latencies();
			for (int i = 0; i < pings; i++) {
				redis.ping();
			}
			for (int i = 0; i < pings; i++) {
				hot.add(ping(redis));
			}
			for (int i = 0; i < pings; i++) {
				sleep(idle);
				rested.add(ping(redis));
			}
			return Report.format(hot.summary().p50Nanos() / 1e3, 0) + " µs back to back, "
					+ Report.format(rested.summary().p50Nanos() / 1e3, 0) + " µs after " + idle.toMillis()
					+ " ms idle (PING p50 over " + Report.integer(pings)
					+ " each, on a fresh Lettuce connection; the hand-over's holder releases after the same idle time)";
		}
		finally {
			client.shutdown();
		}
	}

	private static long ping(RedisCommands<String, String> redis) {
		long start = System.nanoTime();
		redis.ping();
		return System.nanoTime() - start;
	}

	private static void sleep(Duration idle) {
		try {
			Thread.sleep(idle.toMillis());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", e);
		}
	}

}
