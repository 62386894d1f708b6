package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.github.distlock.support.BoundedClose;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The {@link DedicatedConnection}s of {@link ReplicaAcknowledgedWrites}: one is borrowed
 * per write and used by that thread alone; given back, it is kept idle for the next
 * write, the most recently used first, up to {@value #MAX_IDLE} (so about as many stay
 * open as writes ran at once), and closed by a later give-back once it has been idle for
 * the idle timeout. One given back as not reusable (its command failed or timed out, so
 * it may still carry the unanswered command) is closed. {@link #close()} closes the idle
 * ones (waiting a bounded time), and one in use is closed when it is given back.
 */
final class DedicatedConnectionPool implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(DedicatedConnectionPool.class);

	/**
	 * Idle connections kept at most: Redisson's default connection pool size per master.
	 * With 8, sixteen threads acquiring distinct locks opened and closed a connection for
	 * about every other write (0.21 × the raw floor's throughput, docs/benchmarks.md).
	 */
	static final int MAX_IDLE = 64;

	private final Supplier<DedicatedConnection> opener;

	private final long idleTimeoutNanos;

	/** Most recently given back first. */
	private final ConcurrentLinkedDeque<Idle> idle = new ConcurrentLinkedDeque<>();

	private final AtomicInteger open = new AtomicInteger();

	private final AtomicInteger opened = new AtomicInteger();

	private volatile boolean closed;

	private final Duration closeTimeout;

	/**
	 * @param opener opens a new connection, or throws as Spring Data Redis would
	 * @param idleTimeout how long a connection may stay idle before it is closed
	 */
	DedicatedConnectionPool(Supplier<DedicatedConnection> opener, Duration idleTimeout) {
		this(opener, idleTimeout, BoundedClose.DEFAULT_TIMEOUT);
	}

	/**
	 * @param closeTimeout how long {@link #close()} waits for the idle connections to
	 * close
	 */
	DedicatedConnectionPool(Supplier<DedicatedConnection> opener, Duration idleTimeout, Duration closeTimeout) {
		this.opener = opener;
		this.idleTimeoutNanos = idleTimeout.toNanos();
		this.closeTimeout = closeTimeout;
	}

	/**
	 * An idle connection, or a new one.
	 * @throws IllegalStateException when the pool has been closed
	 */
	DedicatedConnection borrow() {
		if (this.closed) {
			throw new IllegalStateException("The lock store has been closed");
		}
		Idle reused = this.idle.pollFirst();
		if (reused != null) {
			return reused.connection();
		}
		DedicatedConnection connection = this.opener.get();
		this.open.incrementAndGet();
		this.opened.incrementAndGet();
		return connection;
	}

	/**
	 * Takes back a borrowed connection: kept idle if {@code reusable} and there is room,
	 * closed otherwise.
	 */
	void giveBack(DedicatedConnection connection, boolean reusable) {
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

	/** Connections opened so far. */
	int opened() {
		return this.opened.get();
	}

	/** Connections open now, idle or in use. */
	int open() {
		return this.open.get();
	}

	/**
	 * Closes the idle connections together, waiting at most the close timeout (5 s unless
	 * told otherwise): a Lettuce connection whose close hangs is left behind with a WARN.
	 */
	@Override
	public void close() {
		this.closed = true;
		List<BoundedClose.Closing> closings = new ArrayList<>();
		for (Idle idle = this.idle.pollFirst(); idle != null; idle = this.idle.pollFirst()) {
			DedicatedConnection connection = idle.connection();
			closings.add(new BoundedClose.Closing("an idle connection of replica-acknowledged lock writes",
					() -> closeQuietly(connection)));
		}
		BoundedClose.closeAll(closings, this.closeTimeout);
	}

	/** An idle connection, and since when it is idle. */
	private record Idle(DedicatedConnection connection, long sinceNanos) {

	}

}
