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
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import reactor.core.publisher.Mono;

/**
 * {@code floor} driven reactively: the same {@code SET NX PX} with a unique token, tried
 * again at once while refused, and owner-checked delete by {@code EVALSHA}, sent through
 * Lettuce's reactive API on one connection. What a reactive caller pays for the least a
 * correct lock does, the reference for what distlock's and Redisson's reactive locks add.
 */
final class FloorReactiveLockClient implements ReactiveLockClient {

	private static final SetArgs ACQUIRE = SetArgs.Builder.nx().px(30_000);

	private static final String RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

	private final RedisClient client;

	private final StatefulRedisConnection<String, String> connection;

	private final RedisReactiveCommands<String, String> commands;

	private final String releaseSha;

	private final long waitNanos;

	private final String instance = UUID.randomUUID().toString();

	private final AtomicLong tokens = new AtomicLong();

	FloorReactiveLockClient(RedisServer redis, Duration waitTime) {
		this.client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
		this.connection = this.client.connect();
		this.commands = this.connection.reactive();
		this.releaseSha = this.connection.sync().scriptLoad(RELEASE);
		this.waitNanos = waitTime.toNanos();
	}

	@Override
	public Mono<Boolean> runLocked(String lockId, Runnable action) {
		return Mono.defer(() -> {
			String key = "floor-reactive:" + lockId;
			String token = this.instance + ':' + this.tokens.incrementAndGet();
			long start = System.nanoTime();
			// A refused SET NX replies nil: an empty Mono, subscribed to again at once.
			Mono<String> acquired = Mono.defer(() -> this.commands.set(key, token, ACQUIRE))
				.filter("OK"::equals)
				.repeatWhenEmpty((attempts) -> attempts.takeWhile((n) -> System.nanoTime() - start < this.waitNanos));
			Mono<Void> release = this.commands
				.evalsha(this.releaseSha, ScriptOutputType.INTEGER, new String[] { key }, token)
				.then();
			return acquired
				.flatMap((ok) -> Mono.fromRunnable(action)
					.onErrorResume((failure) -> release.then(Mono.error(failure)))
					.then(release)
					.thenReturn(true))
				.defaultIfEmpty(false);
		});
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}

}
