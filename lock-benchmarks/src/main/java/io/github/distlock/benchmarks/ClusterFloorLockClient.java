package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.testsupport.RedisCluster;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;

/**
 * {@link FloorLockClient} on a Redis Cluster: the same {@code SET NX PX}, busy retry and
 * owner-checked {@code EVALSHA} delete through Lettuce's cluster client, which sends each
 * command straight to the master of the key's slot. No topology refresh, as Lettuce's
 * defaults: the cluster does not change during a run.
 */
final class ClusterFloorLockClient implements LockClient {

	private static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

	private static final SetArgs ACQUIRE = SetArgs.Builder.nx().px(30_000);

	private final RedisClusterClient client;

	private final StatefulRedisClusterConnection<String, String> connection;

	private final RedisAdvancedClusterCommands<String, String> commands;

	private final String releaseSha;

	private final long waitNanos;

	private final String instance = UUID.randomUUID().toString();

	private final AtomicLong tokens = new AtomicLong();

	ClusterFloorLockClient(RedisCluster cluster, Duration waitTime) {
		List<RedisURI> seeds = cluster.servers()
			.stream()
			.map(server -> RedisURI.create(server.host(), server.port()))
			.toList();
		this.client = RedisClusterClient.create(seeds);
		this.connection = client.connect();
		this.commands = connection.sync();
		// Lettuce loads the script on every node of the cluster.
		this.releaseSha = commands.scriptLoad(RELEASE);
		this.waitNanos = waitTime.toNanos();
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		String key = "floor:" + lockId;
		String token = instance + ':' + tokens.incrementAndGet();
		long start = System.nanoTime();
		while (!"OK".equals(commands.set(key, token, ACQUIRE))) {
			if (System.nanoTime() - start > waitNanos) {
				return false;
			}
		}
		try {
			action.run();
		}
		finally {
			commands.evalsha(releaseSha, ScriptOutputType.INTEGER, new String[] { key }, token);
		}
		return true;
	}

	@Override
	public void close() {
		connection.close();
		client.shutdown();
	}

}
