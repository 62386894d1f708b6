package io.github.distlock.redis;

import org.springframework.dao.NonTransientDataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisScriptingCommands;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs one {@link RedisLockCommands.ScriptCall} on the connection of a
 * {@link StringRedisTemplate} ({@link LockScriptRunner}'s way for other clients than
 * Lettuce's shared connection): {@code EVALSHA} of the script, and {@code EVAL} of its
 * text when Redis answers {@code NOSCRIPT} (after a restart, a failover or
 * {@code SCRIPT FLUSH}), as Spring Data Redis's own script executor does, with the same
 * commands and the same exceptions.
 * <p>
 * It does less per call than {@code StringRedisTemplate.execute(RedisScript, ...)}: the
 * script's digest and text are {@linkplain PreparedScript prepared} once, keys and
 * arguments are encoded to UTF-8 bytes directly, as {@code StringRedisTemplate}'s
 * serializers encode them, and the template is asked to hand out its connection as it is
 * ({@code exposeConnection}), without the close-suppressing proxy it would create, by
 * reflection, for each call. The reply is the script's integer.
 * <p>
 * A template subclass sees each lock script it runs as a {@code RedisCallback} of this
 * type ({@link #call()}), which is how tests intercept them.
 */
final class LockScriptCallback implements RedisCallback<Long> {

	private final RedisLockCommands.ScriptCall call;

	LockScriptCallback(RedisLockCommands.ScriptCall call) {
		this.call = call;
	}

	/** The script, keys and arguments this callback runs. */
	RedisLockCommands.ScriptCall call() {
		return this.call;
	}

	/**
	 * @return the script's reply; {@code null} only if the connection is pipelined or in
	 * a transaction (the script is then queued, as Spring queues it)
	 */
	@Override
	public Long doInRedis(RedisConnection connection) {
		PreparedScript script = PreparedScript.of(this.call.script());
		int keys = this.call.keys().size();
		byte[][] keysAndArgs = PreparedScript.encoded(this.call.keys(), this.call.args());
		RedisScriptingCommands scripting = connection.scriptingCommands();
		if (connection.isPipelined() || connection.isQueueing()) {
			// No EVALSHA: its NOSCRIPT would only show in the results of the pipeline or
			// transaction.
			scripting.eval(script.textBytes, ReturnType.INTEGER, keys, keysAndArgs);
			return null;
		}
		try {
			return scripting.evalSha(script.sha1, ReturnType.INTEGER, keys, keysAndArgs);
		}
		catch (RuntimeException ex) {
			if (!isNoScript(ex)) {
				throw ex;
			}
			return scripting.eval(script.textBytes, ReturnType.INTEGER, keys, keysAndArgs);
		}
	}

	/**
	 * Whether {@code failure} is Redis's {@code NOSCRIPT} reply: the test of Spring Data
	 * Redis's script executor (a non-transient failure with {@code NOSCRIPT} in its
	 * message or a cause's).
	 */
	static boolean isNoScript(RuntimeException failure) {
		if (!(failure instanceof NonTransientDataAccessException)) {
			return false;
		}
		for (Throwable current = failure; current != null; current = current.getCause()) {
			String message = current.getMessage();
			if (message != null && message.contains("NOSCRIPT")) {
				return true;
			}
		}
		return false;
	}

}
