package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.List;

import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.api.sync.RedisStringCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

/**
 * The two-round-trip physical limit of a correct lock: raw Lettuce {@code SET NX PX} with
 * a unique token, retried at once while taken (busy retry, no sleep, no notification),
 * and an owner-checked delete by {@code EVALSHA} ({@link SetNxLockClient}). No renewal,
 * no fencing, no fairness: the reference the others are compared to. The same on one
 * {@code redis-server} ({@link #on(RedisServer, Duration)}) and on a Redis Cluster
 * ({@link #onCluster(RedisCluster, Duration)}).
 */
final class FloorLockClient extends SetNxLockClient {

	private static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

	private <C extends RedisStringCommands<String, String> & RedisScriptingCommands<String, String>> FloorLockClient(
			C commands, Runnable close, Duration waitTime) {
		super("floor:", commands, RELEASE, close, waitTime);
	}

	/** A new instance on one {@code redis-server}. */
	static FloorLockClient on(RedisServer redis, Duration waitTime) {
		RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		StatefulRedisConnection<String, String> connection = client.connect();
		return new FloorLockClient(connection.sync(), () -> {
			connection.close();
			client.shutdown();
		}, waitTime);
	}

	/**
	 * A new instance on a Redis Cluster, through Lettuce's cluster client, which sends
	 * each command straight to the master of the key's slot and loads the script on every
	 * node. No topology refresh, as Lettuce's defaults: the cluster does not change
	 * during a run.
	 */
	static FloorLockClient onCluster(RedisCluster cluster, Duration waitTime) {
		List<RedisURI> seeds = cluster.servers()
			.stream()
			.map(server -> RedisURI.create(server.host(), server.port()))
			.toList();
		RedisClusterClient client = RedisClusterClient.create(seeds);
		StatefulRedisClusterConnection<String, String> connection = client.connect();
		return new FloorLockClient(connection.sync(), () -> {
			connection.close();
			client.shutdown();
		}, waitTime);
	}

	/** None: the floor is told of no release, it retries at once. */
	@Override
	long releasesSeen() {
		return 0;
	}

	/** Busy retry: the next attempt is due at once. */
	@Override
	boolean awaitRelease(long seen, long deadlineNanos) {
		return true;
	}

}
