package io.github.distlock.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link StringRedisTemplate} on which a test intercepts one lock script of one chosen
 * thread: to fail it, or to hold that thread before or after Redis ran it, so that an
 * interleaving is forced rather than hoped for. Every other call goes to Redis unchanged.
 */
final class ScriptInterceptingTemplate extends StringRedisTemplate {

	private final Map<Thread, Interception> interceptions = new ConcurrentHashMap<>();

	ScriptInterceptingTemplate(RedisConnectionFactory connectionFactory) {
		super(connectionFactory);
	}

	/**
	 * From now on, {@code script} run by {@code thread} goes through {@code around}
	 * ({@link LockScripts#ACQUIRE} stands for every acquire script).
	 */
	void intercept(Thread thread, RedisScript<?> script, Around around) {
		this.interceptions.put(thread, new Interception(script, around));
	}

	void stopIntercepting(Thread thread) {
		this.interceptions.remove(thread);
	}

	/** Every lock script runs through here, as a {@link LockScriptCallback}. */
	@Override
	@SuppressWarnings("unchecked")
	public <T> T execute(RedisCallback<T> action, boolean exposeConnection, boolean pipeline) {
		Interception interception = this.interceptions.get(Thread.currentThread());
		if (interception != null && action instanceof LockScriptCallback lockScript
				&& interception.matches(lockScript.call().script())) {
			return (T) interception.around.run(() -> super.execute(action, exposeConnection, pipeline));
		}
		return super.execute(action, exposeConnection, pipeline);
	}

	/** What runs instead of the script; {@code proceed} runs it in Redis. */
	@FunctionalInterface
	interface Around {

		Object run(Supplier<?> proceed);

	}

	private record Interception(RedisScript<?> script, Around around) {

		/**
		 * The script itself; for {@link LockScripts#ACQUIRE}, also the acquire of a
		 * waiter that queues ({@link LockScripts#ACQUIRE_QUEUED}): both are the
		 * acquisition's attempts.
		 */
		boolean matches(RedisScript<?> called) {
			return called == this.script
					|| (this.script == LockScripts.ACQUIRE && called == QueueScripts.ACQUIRE_QUEUED);
		}

	}

}
