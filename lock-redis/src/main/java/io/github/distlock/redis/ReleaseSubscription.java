package io.github.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import io.github.distlock.support.BoundedClose;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The one pub/sub subscription of this instance to the release channel, opened when the
 * first thread has to wait and kept until shutdown. Waiters are woken by it instead of
 * polling.
 * <p>
 * Only Lettuce confirms a subscription without blocking the subscribing thread, so with
 * other clients no subscription is made and waiters fall back to short re-checks. Lettuce
 * re-subscribes after a reconnect by itself; a message lost meanwhile is covered by the
 * waiters' bounded fallback re-check.
 */
final class ReleaseSubscription implements MessageListener, AutoCloseable {

	private static final Log logger = LogFactory.getLog(ReleaseSubscription.class);

	private static final long RETRY_AFTER_FAILURE_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final RedisConnectionFactory connectionFactory;

	private final byte[] channel;

	private final Consumer<String> onRelease;

	private final boolean supported;

	private final ReentrantLock opening = new ReentrantLock();

	private final AtomicReference<@Nullable RedisConnection> connection = new AtomicReference<>();

	private volatile long nextAttemptNanos = System.nanoTime();

	private volatile boolean closed;

	private final Duration closeTimeout;

	ReleaseSubscription(RedisConnectionFactory connectionFactory, String channel, Consumer<String> onRelease) {
		this(connectionFactory, channel, onRelease, BoundedClose.DEFAULT_TIMEOUT);
	}

	/**
	 * @param closeTimeout how long {@link #close()} waits for the subscription's
	 * connection to close
	 */
	ReleaseSubscription(RedisConnectionFactory connectionFactory, String channel, Consumer<String> onRelease,
			Duration closeTimeout) {
		this.connectionFactory = connectionFactory;
		this.channel = channel.getBytes(StandardCharsets.UTF_8);
		this.onRelease = onRelease;
		this.supported = isLettuce(connectionFactory.getClass());
		this.closeTimeout = closeTimeout;
	}

	/**
	 * Whether the factory is Lettuce's, or a subclass of it; by name, so that Lettuce's
	 * classes are not loaded where the factory is another client's.
	 */
	private static boolean isLettuce(Class<?> factoryClass) {
		for (Class<?> type = factoryClass; type != null; type = type.getSuperclass()) {
			if (type.getName().startsWith("org.springframework.data.redis.connection.lettuce.")) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Makes sure the subscription is confirmed, waiting at most until
	 * {@code deadlineNanos}.
	 * @return whether releases will be announced to this instance
	 */
	boolean ensureActive(long deadlineNanos) {
		if (this.connection.get() != null) {
			return true;
		}
		if (!this.supported || this.closed || System.nanoTime() - this.nextAttemptNanos < 0) {
			return false;
		}
		try {
			if (!this.opening.tryLock(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				return false;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		try {
			if (this.connection.get() == null && !this.closed && System.nanoTime() - this.nextAttemptNanos >= 0) {
				open();
			}
			return this.connection.get() != null;
		}
		finally {
			this.opening.unlock();
		}
	}

	private void open() {
		RedisConnection opened = null;
		try {
			opened = this.connectionFactory.getConnection();
			// Lettuce returns once Redis confirmed the subscription.
			opened.subscribe(this, this.channel);
			this.connection.set(opened);
			// close() may have run while subscribing, and seen no connection yet: then it
			// is closed
			// here. Whichever of the two takes the connection out closes it, once.
			if (this.closed) {
				RedisConnection current = this.connection.getAndSet(null);
				if (current != null) {
					closeQuietly(current);
				}
			}
		}
		catch (RuntimeException ex) {
			if (Thread.currentThread().isInterrupted()) {
				// The subscribing waiter was interrupted, not Redis unreachable: the next
				// waiter tries again.
				logger.debug("Subscribing to lock releases was interrupted", ex);
			}
			else {
				this.nextAttemptNanos = System.nanoTime() + RETRY_AFTER_FAILURE_NANOS;
				logger.warn("Could not subscribe to lock releases; waiters re-check periodically instead: " + ex);
			}
			if (opened != null) {
				closeQuietly(opened);
			}
		}
	}

	@Override
	public void onMessage(Message message, byte @Nullable [] pattern) {
		this.onRelease.accept(new String(message.getBody(), StandardCharsets.UTF_8));
	}

	/**
	 * Closes the subscription's connection, waiting at most the close timeout (5 s unless
	 * told otherwise): one whose close hangs is left behind with a WARN.
	 */
	@Override
	public void close() {
		this.closed = true;
		RedisConnection current = this.connection.getAndSet(null);
		if (current != null) {
			BoundedClose.close("the release subscription", () -> closeQuietly(current), this.closeTimeout);
		}
	}

	private static void closeQuietly(RedisConnection connection) {
		try {
			connection.close();
		}
		catch (RuntimeException ex) {
			logger.debug("Closing the release subscription failed", ex);
		}
	}

}
