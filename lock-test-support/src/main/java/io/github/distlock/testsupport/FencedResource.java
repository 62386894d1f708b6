package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A resource protected by fencing tokens, kept in a Redis that no fault touches: a write
 * of a named resource is accepted only with a token greater than the last accepted one,
 * atomically, in a Lua script. This is what a database does with
 * {@code UPDATE ... SET value = ?, fence = ? WHERE id = ? AND fence < ?}.
 *
 * <pre>{@code
 * try (RedisServer store = RedisServer.start(); FencedResource resource = FencedResource.connect(store)) {
 *     resource.write("stock:apple", lock.fencingToken(), "41"); // false: a newer holder already wrote
 * }
 * }</pre>
 *
 * <p>
 * Per resource it keeps the value, the last accepted token and the counts of accepted and
 * rejected writes, in one hash {@code fenced:<name>}. One instance is one connection and
 * not thread-safe: give every thread its own. Client JVMs started with {@link ClientJvm}
 * can use it too.
 */
public final class FencedResource implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	/**
	 * KEYS[1]: the resource's hash. ARGV: token, value. Tokens stay below 2^53, so Lua's
	 * doubles compare them exactly.
	 */
	private static final String WRITE = """
			local last = tonumber(redis.call('hget', KEYS[1], 'token') or '0')
			if tonumber(ARGV[1]) > last then
			  redis.call('hset', KEYS[1], 'token', ARGV[1], 'value', ARGV[2])
			  redis.call('hincrby', KEYS[1], 'accepted', 1)
			  return 1
			end
			redis.call('hincrby', KEYS[1], 'rejected', 1)
			return 0
			""";

	private final RespConnection connection;

	private FencedResource(RespConnection connection) {
		this.connection = connection;
	}

	/** Connects to the Redis that keeps the resources. */
	public static FencedResource connect(String host, int port) {
		try {
			return new FencedResource(RespConnection.open(host, port, TIMEOUT));
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not connect to the fenced resource store at " + host + ":" + port, e);
		}
	}

	/** Connects to the Redis that keeps the resources. */
	public static FencedResource connect(RedisServer store) {
		return connect(store.host(), store.port());
	}

	/**
	 * Writes {@code value} if {@code token} is greater than every token accepted for
	 * {@code name} before.
	 * @return whether the write was accepted
	 */
	public boolean write(String name, long token, String value) {
		if (token <= 0 || token >= (1L << 53)) {
			throw new IllegalArgumentException("token must be in 1..2^53-1, was " + token);
		}
		return (Long) call("EVAL", WRITE, "1", key(name), Long.toString(token), Objects.requireNonNull(value)) == 1L;
	}

	/** The last accepted value, or {@code null} if no write was accepted. */
	public String value(String name) {
		return (String) call("HGET", key(name), "value");
	}

	/** The last accepted token, or 0. */
	public long lastToken(String name) {
		return number(call("HGET", key(name), "token"));
	}

	/** Writes accepted so far. */
	public long accepted(String name) {
		return number(call("HGET", key(name), "accepted"));
	}

	/** Writes rejected as stale so far. */
	public long rejected(String name) {
		return number(call("HGET", key(name), "rejected"));
	}

	/** Rejected writes summed over every resource. */
	public long rejectedEverywhere() {
		long sum = 0;
		for (Object name : (List<?>) call("KEYS", "fenced:*")) {
			sum += number(call("HGET", (String) name, "rejected"));
		}
		return sum;
	}

	@Override
	public void close() {
		try {
			connection.close();
		}
		catch (IOException e) {
			// Closing anyway.
		}
	}

	private static String key(String name) {
		return "fenced:" + Objects.requireNonNull(name, "name");
	}

	private static long number(Object reply) {
		return reply == null ? 0 : Long.parseLong((String) reply);
	}

	private Object call(String... args) {
		try {
			return connection.call(args);
		}
		catch (IOException e) {
			throw new UncheckedIOException("The fenced resource store did not answer " + args[0], e);
		}
	}

}
