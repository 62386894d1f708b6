package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import io.lettuce.core.api.sync.RedisStringCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

/**
 * The two-round-trip physical limit of a correct lock: raw Lettuce {@code SET NX PX} with
 * a unique token, retried at once while taken (busy retry, no sleep, no notification),
 * and an owner-checked delete by {@code EVALSHA}. No renewal, no fencing, no fairness:
 * the reference the others are compared to. The same on one {@code redis-server}
 * ({@link #on(RedisServer, Duration)}) and on a Redis Cluster
 * ({@link #onCluster(RedisCluster, Duration)}).
 */
final class FloorLockClient implements LockClient {

	private static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

	private static final SetArgs ACQUIRE = SetArgs.Builder.nx().px(30_000);

	private final RedisStringCommands<String, String> strings;

	private final RedisScriptingCommands<String, String> scripts;

	private final Runnable close;

	private final String releaseSha;

	private final long waitNanos;

	private final String instance = UUID.randomUUID().toString();

	private final AtomicLong tokens = new AtomicLong();

	private <C extends RedisStringCommands<String, String> & RedisScriptingCommands<String, String>> FloorLockClient(
			C commands, Runnable close, Duration waitTime) {
		this.strings = commands;
		this.scripts = commands;
		this.close = close;
		this.releaseSha = commands.scriptLoad(RELEASE);
		this.waitNanos = waitTime.toNanos();
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

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		String key = "floor:" + lockId;
		String token = instance + ':' + tokens.incrementAndGet();
		long start = System.nanoTime();
		while (!"OK".equals(strings.set(key, token, ACQUIRE))) {
			if (System.nanoTime() - start > waitNanos) {
				return false;
			}
		}
		try {
			action.run();
		}
		finally {
			scripts.evalsha(releaseSha, ScriptOutputType.INTEGER, new String[] { key }, token);
		}
		return true;
	}

	@Override
	public void close() {
		close.run();
	}

}
