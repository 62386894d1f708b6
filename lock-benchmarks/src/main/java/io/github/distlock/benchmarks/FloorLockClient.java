package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.testsupport.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * The two-round-trip physical limit of a correct lock: raw Lettuce {@code SET NX PX} with
 * a unique token, retried at once while taken (busy retry, no sleep, no notification),
 * and an owner-checked delete by {@code EVALSHA}. No renewal, no fencing, no fairness:
 * the reference the others are compared to.
 */
final class FloorLockClient implements LockClient {

	private static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

	private static final SetArgs ACQUIRE = SetArgs.Builder.nx().px(30_000);

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final RedisCommands<String, String> commands;

	private final String releaseSha;

	private final long waitNanos;

	private final String instance = UUID.randomUUID().toString();

	private final AtomicLong tokens = new AtomicLong();

	FloorLockClient(RedisServer redis, Duration waitTime) {
		this.client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		this.connection = client.connect();
		this.commands = connection.sync();
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
