package io.github.distlock.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
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
 * SSL, database and client options), each used by one thread at a time. Idle ones are
 * kept for reuse, the most recently used first, up to {@value #MAX_IDLE} (so about as
 * many stay open as writes ran at once), and closed once unused for a minute; a
 * connection whose command failed or timed out is closed instead of reused (it may still
 * carry the unanswered command), and all are closed by {@link #close()}.
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

	private static final Log logger = LogFactory.getLog(ReplicaAcknowledgedWrites.class);

	/**
	 * Idle connections kept at most: Redisson's default connection pool size per master.
	 * With 8, sixteen threads acquiring distinct locks opened and closed a connection for
	 * about every other write (0.21 × the raw floor's throughput, docs/benchmarks.md).
	 */
	private static final int MAX_IDLE = 64;

	/** How long a connection may stay idle before the next one given back closes it. */
	private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(1);

	private final LettuceConnectionFactory connectionFactory;

	private final int minReplicas;

	private final Duration timeout;

	private final long commandTimeoutMillis;

	private final long idleTimeoutNanos;

	/** Most recently given back first. */
	private final ConcurrentLinkedDeque<Idle> idle = new ConcurrentLinkedDeque<>();

	private final AtomicInteger open = new AtomicInteger();

	private final AtomicInteger opened = new AtomicInteger();

	private volatile boolean closed;

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
	 * @param idleTimeout how long a connection may stay idle before it is closed
	 */
	ReplicaAcknowledgedWrites(LettuceConnectionFactory connectionFactory, int minReplicas, Duration timeout,
			Duration idleTimeout) {
		this.idleTimeoutNanos = idleTimeout.toNanos();
		this.connectionFactory = connectionFactory;
		this.minReplicas = minReplicas;
		this.timeout = timeout;
		this.commandTimeoutMillis = Math.max(1,
				connectionFactory.getClientConfiguration().getCommandTimeout().toMillis());
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
		DedicatedConnection connection = borrow();
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
			giveBack(connection, reusable);
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

	private DedicatedConnection borrow() {
		if (this.closed) {
			throw new IllegalStateException("The lock store has been closed");
		}
		Idle reused = this.idle.pollFirst();
		if (reused != null) {
			return reused.connection();
		}
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
		this.open.incrementAndGet();
		this.opened.incrementAndGet();
		return connection;
	}

	/**
	 * Longer than any command of these connections waits, so that a client-side timeout
	 * never cuts a {@code WAIT} short: {@link #await} bounds each command.
	 */
	private Duration connectionTimeout() {
		return Duration.ofMillis(this.timeout.toMillis() + 2 * this.commandTimeoutMillis);
	}

	private void giveBack(DedicatedConnection connection, boolean reusable) {
		if (reusable && !this.closed && this.idle.size() < MAX_IDLE && connection.connection().isOpen()) {
			Idle given = new Idle(connection, System.nanoTime());
			this.idle.offerFirst(given);
			closeUnusedSince(given.sinceNanos() - this.idleTimeoutNanos, given);
			if (!this.closed || !this.idle.remove(given)) {
				return;
			}
		}
		closeQuietly(connection);
	}

	/**
	 * Closes the idle connections, least recently used first, that have been idle since
	 * before {@code nanos}, but not {@code given}.
	 */
	private void closeUnusedSince(long nanos, Idle given) {
		for (Idle oldest = this.idle.peekLast(); oldest != null && oldest != given
				&& oldest.sinceNanos() - nanos <= 0; oldest = this.idle.peekLast()) {
			if (this.idle.removeLastOccurrence(oldest)) {
				closeQuietly(oldest.connection());
			}
		}
	}

	private void closeQuietly(DedicatedConnection connection) {
		this.open.decrementAndGet();
		try {
			connection.connection().close();
		}
		catch (RuntimeException ex) {
			logger.debug("Closing a connection of replica-acknowledged lock writes failed", ex);
		}
	}

	/** Connections opened so far; for tests. */
	int openedConnections() {
		return this.opened.get();
	}

	/** Connections open now, idle or in use; for tests. */
	int openConnections() {
		return this.open.get();
	}

	/**
	 * Closes the idle connections; one in use is closed when it is given back.
	 */
	@Override
	public void close() {
		this.closed = true;
		for (Idle idle = this.idle.pollFirst(); idle != null; idle = this.idle.pollFirst()) {
			closeQuietly(idle.connection());
		}
	}

	/** An idle connection, and since when it is idle. */
	private record Idle(DedicatedConnection connection, long sinceNanos) {

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
