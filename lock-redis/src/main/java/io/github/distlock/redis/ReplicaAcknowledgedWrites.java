package io.github.distlock.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.StringCodec;

import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The lock writes that count only once replicas acknowledged them: an acquire or
 * hand-over script, then {@code WAIT numreplicas timeout} on the same connection, since
 * {@code WAIT} counts the acknowledgements of its own connection's writes.
 * <p>
 * {@code WAIT} blocks the connection it runs on, so these writes never use Spring Data
 * Redis's shared connection (whose other commands, from every thread, would queue behind
 * it): they run on connections of their own, opened from the
 * {@link LettuceConnectionFactory}'s Lettuce client (so with its address, credentials,
 * SSL, database and client options), each used by one thread at a time and kept for the
 * next writes ({@link DedicatedConnectionPool}, idle ones closed after a minute unused);
 * a connection whose command failed or timed out is closed instead of reused (it may
 * still carry the unanswered command), and all are closed by {@link #close()}.
 * <p>
 * On Redis Cluster the script and the {@code WAIT} go to the master that serves the lock
 * key's slot, on that node's own connection, so the {@code WAIT} waits for that master's
 * replicas; a {@code MOVED} reply (the slot moved meanwhile, the script did not run)
 * refreshes the slot map and is tried once more, an {@code ASK} reply (the slot is being
 * migrated and the lock's keys are not on the source) runs the script on the target after
 * {@code ASKING}, and the {@code WAIT} there. With Sentinel, the connection follows the
 * master Sentinel names when it (re)connects; a demoted master's {@code READONLY} closes
 * the connection, so the next write connects to the new master.
 */
final class ReplicaAcknowledgedWrites implements AutoCloseable {

	/** How long a connection may stay idle before the next one given back closes it. */
	private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(1);

	private final LettuceConnectionFactory connectionFactory;

	private final int minReplicas;

	private final Duration timeout;

	private final long commandTimeoutMillis;

	private final DedicatedConnectionPool connections;

	/**
	 * @param connectionFactory the Lettuce connection factory whose client opens the
	 * connections
	 * @param minReplicas replicas that must acknowledge a write, at least 1
	 * @param timeout how long to wait for them, at least 1 ms
	 */
	ReplicaAcknowledgedWrites(LettuceConnectionFactory connectionFactory, int minReplicas, Duration timeout) {
		this(connectionFactory, minReplicas, timeout, IDLE_TIMEOUT);
	}

	/**
	 * The writes waiting for {@code settings.minReplicas()} replicas, or {@code null} for
	 * 0.
	 * @throws IllegalArgumentException when the template's connection factory is not
	 * Lettuce's
	 */
	static @Nullable ReplicaAcknowledgedWrites of(StringRedisTemplate redis, RedisLockSettings settings) {
		if (settings.minReplicas() == 0) {
			return null;
		}
		RedisConnectionFactory factory = redis.getRequiredConnectionFactory();
		if (!(factory instanceof LettuceConnectionFactory lettuce)) {
			throw new IllegalArgumentException("distributed-lock.replication.min-replicas needs Spring Data Redis's "
					+ "LettuceConnectionFactory (WAIT must run on a connection of its own), but the connection factory is "
					+ factory.getClass().getName());
		}
		return new ReplicaAcknowledgedWrites(lettuce, settings.minReplicas(), settings.replicationTimeout());
	}

	/**
	 * @param idleTimeout how long a connection may stay idle before it is closed
	 */
	ReplicaAcknowledgedWrites(LettuceConnectionFactory connectionFactory, int minReplicas, Duration timeout,
			Duration idleTimeout) {
		this.connectionFactory = connectionFactory;
		this.minReplicas = minReplicas;
		this.timeout = timeout;
		this.commandTimeoutMillis = Math.max(1,
				connectionFactory.getClientConfiguration().getCommandTimeout().toMillis());
		this.connections = new DedicatedConnectionPool(this::connect, idleTimeout);
	}

	int minReplicas() {
		return this.minReplicas;
	}

	Duration timeout() {
		return this.timeout;
	}

	/**
	 * Runs a script on a dedicated connection to the master of its first key and, when
	 * its reply says it wrote a new owner, waits for the replicas on that connection.
	 * @param wroteOwner whether a script reply means the script wrote a new owner
	 * @return the script's reply and the replicas that acknowledged it (-1 if it wrote no
	 * owner, so nothing was waited for)
	 * @throws DataAccessException as Spring Data Redis would throw it
	 */
	Written write(RedisLockCommands.ScriptCall call, ReplyTest wroteOwner) {
		RedisScript<Long> script = call.script();
		List<String> keys = call.keys();
		List<String> args = call.args();
		DedicatedConnection connection = this.connections.borrow();
		boolean reusable = false;
		try {
			StatefulRedisConnection<String, String> node = connection.forKey(keys.get(0));
			long reply;
			try {
				reply = eval(node, script, keys, args, false);
			}
			catch (DataAccessException ex) {
				String error = errorReply(ex);
				if (error.startsWith("MOVED ")
						&& this.connectionFactory.getRequiredNativeClient() instanceof RedisClusterClient cluster) {
					// The slot moved for good and the script did not run: follow it
					// to its new master, once.
					cluster.refreshPartitions();
					node = connection.forKey(keys.get(0));
					reply = eval(node, script, keys, args, false);
				}
				else if (error.startsWith("ASK ") && connection instanceof DedicatedConnection.ClusterNodes cluster) {
					// The slot is being migrated and the lock's keys are not (or no
					// longer) on the source: the target runs the script, and its replicas
					// are waited for.
					node = cluster.forAddress(error.substring(error.lastIndexOf(' ') + 1));
					reply = eval(node, script, keys, args, true);
				}
				else {
					throw ex;
				}
			}
			long acknowledged = -1;
			if (wroteOwner.test(reply)) {
				acknowledged = await(node.async().waitForReplication(this.minReplicas, this.timeout.toMillis()),
						this.timeout.toMillis() + this.commandTimeoutMillis);
			}
			reusable = true;
			return new Written(reply, acknowledged);
		}
		catch (RuntimeException ex) {
			// Lettuce's own too, e.g. connecting to a master that is down.
			throw translated(ex);
		}
		finally {
			this.connections.giveBack(connection, reusable);
		}
	}

	/**
	 * @param asking whether to send {@code ASKING} first (the target of an {@code ASK}
	 * redirect serves the slot only to commands that follow it)
	 */
	private long eval(StatefulRedisConnection<String, String> node, RedisScript<Long> script, List<String> keys,
			List<String> args, boolean asking) {
		RedisAsyncCommands<String, String> commands = node.async();
		PreparedScript prepared = PreparedScript.of(script);
		String[] keyArray = keys.toArray(String[]::new);
		String[] argArray = args.toArray(String[]::new);
		try {
			if (asking) {
				await(commands.asking(), this.commandTimeoutMillis);
			}
			return this.<Long>await(commands.evalsha(prepared.sha1, ScriptOutputType.INTEGER, keyArray, argArray),
					this.commandTimeoutMillis);
		}
		catch (DataAccessException ex) {
			if (!(NestedExceptionUtils.getMostSpecificCause(ex) instanceof RedisNoScriptException)
					&& !errorReply(ex).startsWith("NOSCRIPT ")) {
				throw ex;
			}
			// Not cached on this server yet (or flushed): send the script itself, as
			// Spring Data Redis does.
			if (asking) {
				await(commands.asking(), this.commandTimeoutMillis);
			}
			return this.<Long>await(commands.eval(prepared.text, ScriptOutputType.INTEGER, keyArray, argArray),
					this.commandTimeoutMillis);
		}
	}

	private <T> T await(Future<T> reply, long timeoutMillis) {
		try {
			return reply.get(timeoutMillis, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new DataAccessResourceFailureException("Interrupted while waiting for Redis", ex);
		}
		catch (TimeoutException ex) {
			throw new QueryTimeoutException("Redis command timed out after " + timeoutMillis + "ms", ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw translated(runtime);
			}
			if (cause instanceof IOException) {
				// E.g. "Connection reset": the node went away mid-command.
				throw new RedisConnectionFailureException("Redis connection failed", cause);
			}
			throw new RedisSystemException("Redis command failed", cause);
		}
	}

	/** Redis's error reply, which the client wraps, e.g. "MOVED 3999 127.0.0.1:6381". */
	/** {@code failure} as Spring Data Redis would throw it. */
	private RuntimeException translated(RuntimeException failure) {
		DataAccessException translated = (failure instanceof DataAccessException) ? null
				: this.connectionFactory.translateExceptionIfPossible(failure);
		return (translated != null) ? translated : failure;
	}

	private static String errorReply(RuntimeException failure) {
		return String.valueOf(NestedExceptionUtils.getMostSpecificCause(failure).getMessage());
	}

	/** A new connection to the factory's Redis, as Spring Data Redis would fail. */
	private DedicatedConnection connect() {
		DedicatedConnection connection;
		try {
			AbstractRedisClient client = this.connectionFactory.getRequiredNativeClient();
			connection = (client instanceof RedisClusterClient cluster)
					? new DedicatedConnection.ClusterNodes(cluster.connect(StringCodec.UTF8), connectionTimeout())
					: new DedicatedConnection.Standalone(((RedisClient) client).connect(StringCodec.UTF8));
		}
		catch (RuntimeException ex) {
			throw translated(ex);
		}
		// The connection's own timeout must not cut a WAIT short; each command is bounded
		// by await().
		connection.connection().setTimeout(connectionTimeout());
		return connection;
	}

	/**
	 * Longer than any command of these connections waits, so that a client-side timeout
	 * never cuts a {@code WAIT} short: {@link #await} bounds each command.
	 */
	private Duration connectionTimeout() {
		return Duration.ofMillis(this.timeout.toMillis() + 2 * this.commandTimeoutMillis);
	}

	/** Connections opened so far; for tests. */
	int openedConnections() {
		return this.connections.opened();
	}

	/** Connections open now, idle or in use; for tests. */
	int openConnections() {
		return this.connections.open();
	}

	/**
	 * Closes the idle connections; one in use is closed when it is given back.
	 */
	@Override
	public void close() {
		this.connections.close();
	}

	/**
	 * Which script replies mean that the script wrote a new owner.
	 */
	@FunctionalInterface
	interface ReplyTest {

		boolean test(long reply);

	}

	/**
	 * @param reply the script's reply
	 * @param acknowledged replicas that acknowledged the write, -1 if not waited for
	 */
	record Written(long reply, long acknowledged) {

	}

}
