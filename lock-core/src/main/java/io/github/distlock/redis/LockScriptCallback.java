package io.github.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.dao.NonTransientDataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisScriptingCommands;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs one {@link RedisLockCommands.ScriptCall} on the connection of a
 * {@link StringRedisTemplate}: {@code EVALSHA} of the script, and {@code EVAL} of its
 * text when Redis answers {@code NOSCRIPT} (after a restart, a failover or
 * {@code SCRIPT FLUSH}), as Spring Data Redis's own script executor does, with the same
 * commands and the same exceptions.
 * <p>
 * It does less per call than {@code StringRedisTemplate.execute(RedisScript, ...)}: each
 * script's SHA-1 and text bytes are computed once per JVM (Spring's script object
 * computes its SHA-1 under two monitors on every call, which threads of one instance
 * contend for), keys and arguments are encoded to UTF-8 bytes directly, as
 * {@code StringRedisTemplate}'s serializers and the replica-acknowledged connections
 * encode them, and the template is asked to hand out its connection as it is
 * ({@code exposeConnection}), without the close-suppressing proxy it would create, by
 * reflection, for each call. The reply is the script's integer.
 * <p>
 * A template subclass sees each lock script it runs as a {@code RedisCallback} of this
 * type ({@link #call()}), which is how tests intercept them.
 */
final class LockScriptCallback implements RedisCallback<Long> {

	/** Each script's digest and text, by script object (the scripts are constants). */
	private static final ConcurrentHashMap<RedisScript<?>, Prepared> prepared = new ConcurrentHashMap<>();

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
		Prepared script = prepared(this.call.script());
		List<String> keys = this.call.keys();
		byte[][] keysAndArgs = encoded(keys, this.call.args());
		RedisScriptingCommands scripting = connection.scriptingCommands();
		if (connection.isPipelined() || connection.isQueueing()) {
			// No EVALSHA: its NOSCRIPT would only show in the results of the pipeline or
			// transaction.
			scripting.eval(script.text, ReturnType.INTEGER, keys.size(), keysAndArgs);
			return null;
		}
		try {
			return scripting.evalSha(script.sha1, ReturnType.INTEGER, keys.size(), keysAndArgs);
		}
		catch (RuntimeException ex) {
			if (!isNoScript(ex)) {
				throw ex;
			}
			return scripting.eval(script.text, ReturnType.INTEGER, keys.size(), keysAndArgs);
		}
	}

	private static Prepared prepared(RedisScript<?> script) {
		Prepared known = prepared.get(script);
		return (known != null) ? known : prepared.computeIfAbsent(script, Prepared::new);
	}

	private static byte[][] encoded(List<String> keys, List<String> args) {
		byte[][] encoded = new byte[keys.size() + args.size()][];
		int i = 0;
		for (String key : keys) {
			encoded[i++] = key.getBytes(StandardCharsets.UTF_8);
		}
		for (String arg : args) {
			encoded[i++] = arg.getBytes(StandardCharsets.UTF_8);
		}
		return encoded;
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

	/** A script's SHA-1 (hex) and its text as UTF-8. */
	private static final class Prepared {

		final String sha1;

		final byte[] text;

		Prepared(RedisScript<?> script) {
			this.sha1 = script.getSha1();
			this.text = script.getScriptAsString().getBytes(StandardCharsets.UTF_8);
		}

	}

}
