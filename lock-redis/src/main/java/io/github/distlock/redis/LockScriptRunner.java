package io.github.distlock.redis;

import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

/**
 * Runs one lock script ({@link RedisLockCommands.ScriptCall}) and answers its integer
 * reply: {@code EVALSHA}, and {@code EVAL} of the script's text when Redis answers
 * {@code NOSCRIPT} (after a restart, a failover or {@code SCRIPT FLUSH}), failing with
 * Spring's {@code DataAccessException}s as Spring Data Redis does.
 * <p>
 * Two ways, chosen once per store ({@link #of}):
 * <ul>
 * <li>on the shared native connection of a {@code LettuceConnectionFactory} (the default
 * of Spring Boot), straight through Lettuce ({@link SharedConnectionScriptRunner}): the
 * lock's hot path, with nothing built per call but the command;</li>
 * <li>through the template ({@link LockScriptCallback}) otherwise: with another client,
 * with {@code shareNativeConnection=false} (each call then borrows a connection, as the
 * template does), or with a subclass of {@code StringRedisTemplate}, whose behaviour the
 * store keeps (a subclass sees each lock script as a {@code LockScriptCallback}, which is
 * how tests intercept them).</li>
 * </ul>
 */
@FunctionalInterface
interface LockScriptRunner {

	/**
	 * Runs {@code call}.
	 * @return the script's reply
	 * @throws org.springframework.dao.DataAccessException as Spring Data Redis throws it
	 */
	long run(RedisLockCommands.ScriptCall call);

	/**
	 * Sends {@code call} without waiting for its reply, where the client allows it.
	 * @return the script's reply, failing as {@link #run} throws; {@code null} when this
	 * runner can only block
	 */
	default @Nullable CompletionStage<Long> runAsync(RedisLockCommands.ScriptCall call) {
		return null;
	}

	/**
	 * Whether {@link #runAsync} sends without blocking now; {@code false} when it would
	 * first open its connection (see {@link #connect()}).
	 * @return whether it is connected
	 */
	default boolean isConnected() {
		return true;
	}

	/** Opens the connection {@link #runAsync} sends on, blocking while it connects. */
	default void connect() {
	}

	static LockScriptRunner of(StringRedisTemplate redis) {
		RedisConnectionFactory factory = redis.getRequiredConnectionFactory();
		// Lettuce's classes load only when Lettuce is there.
		if (redis.getClass() == StringRedisTemplate.class
				&& ClassUtils.isPresent("io.lettuce.core.RedisClient", factory.getClass().getClassLoader())
				&& SharedConnectionScriptRunner.isSharedLettuceConnection(factory)) {
			return new SharedConnectionScriptRunner(redis);
		}
		return (call) -> reply(redis.execute(new LockScriptCallback(call), true));
	}

	private static long reply(Long reply) {
		if (reply == null) {
			// Only in a pipeline or transaction, which the lock never opens.
			throw new IllegalStateException("Redis returned no reply to a lock script");
		}
		return reply;
	}

}
