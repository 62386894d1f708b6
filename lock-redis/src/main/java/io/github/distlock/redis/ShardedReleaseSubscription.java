package io.github.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import io.github.distlock.support.BoundedClose;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The release subscriptions of this instance on a Redis Cluster: one sharded pub/sub
 * subscription ({@code SSUBSCRIBE}) per lock that a thread of this instance waits for, on
 * the lock's shard channel ({@link LockKeys#releaseShardChannel}), at the master serving
 * the lock's slot ({@link ShardChannels} keeps them; this class holds the connection and
 * follows the topology). A release is thus sent to the nodes of one shard only, and only
 * to the instances waiting for that lock, instead of being broadcast to every node.
 * <p>
 * A channel is subscribed when a waiter first needs it ({@link #ensureActive}) and
 * unsubscribed once no waiter of this instance asked for it for {@value #IDLE_SECONDS}
 * seconds (waiters ask again at every re-check, at least once a second), so the number of
 * subscriptions follows the locks waited for, not the locks ever used.
 * <p>
 * Subscriptions follow the slot: Lettuce re-subscribes a node connection when it
 * reconnects to the same node, but not at another node. This class re-subscribes a
 * channel at the slot's current master when Lettuce reports a topology change (Spring
 * Boot's {@code spring.data.redis.lettuce.cluster.refresh.*}), when a node unsubscribes
 * the channel itself (Redis does when the slot moves away), and when a waiter finds its
 * channel on a closed connection or on a node that no longer serves the slot; a
 * subscription that fails (a {@code MOVED} reply, an unreachable node) refreshes the
 * client's view of the cluster, at most once a second. Announcements lost meanwhile are
 * covered by the waiters' bounded re-check.
 * <p>
 * A server without sharded pub/sub (before Redis 7) refuses {@code SSUBSCRIBE}: the
 * channels are then subscribed with a classic {@code SUBSCRIBE}, and the lock scripts
 * fall back to a classic {@code PUBLISH} on the same channel, which the cluster
 * broadcasts to every node.
 */
final class ShardedReleaseSubscription extends RedisClusterPubSubAdapter<String, String> implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ShardedReleaseSubscription.class);

	static final long IDLE_SECONDS = 30;

	private static final long MAX_SWEEP_INTERVAL_MILLIS = 5_000;

	private static final long RETRY_AFTER_FAILURE_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final LettuceConnectionFactory connectionFactory;

	private final Consumer<String> onRelease;

	/** How long a channel stays subscribed after the last waiter asked for it. */
	private final long idleNanos;

	/**
	 * Lettuce's cluster client of the connection factory, once the connection is open.
	 */
	private volatile @Nullable RedisClusterClient client;

	private final ShardChannels channels = new ShardChannels(() -> this.connection, this::masterBySlot,
			this::refreshTopology);

	private final ReentrantLock opening = new ReentrantLock();

	private volatile @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

	private volatile @Nullable Disposable topologyEvents;

	private volatile java.util.concurrent.@Nullable Future<?> sweeper;

	private volatile long nextOpenAttemptNanos = System.nanoTime();

	private volatile long nextRefreshNanos = System.nanoTime();

	private volatile boolean closed;

	/**
	 * @param connectionFactory Lettuce's connection factory, in cluster mode
	 * @param onRelease called with the key of a released lock, on Lettuce's I/O thread
	 */
	ShardedReleaseSubscription(RedisConnectionFactory connectionFactory, Consumer<String> onRelease) {
		this(connectionFactory, onRelease, Duration.ofSeconds(IDLE_SECONDS));
	}

	/**
	 * @param connectionFactory Lettuce's connection factory, in cluster mode
	 * @param onRelease called with the key of a released lock, on Lettuce's I/O thread
	 * @param idleTime how long a channel stays subscribed after the last waiter asked for
	 * it
	 */
	ShardedReleaseSubscription(RedisConnectionFactory connectionFactory, Consumer<String> onRelease,
			Duration idleTime) {
		this.idleNanos = idleTime.toNanos();
		if (!isLettuceCluster(connectionFactory)) {
			throw new IllegalArgumentException("Sharded release subscriptions need Lettuce in cluster mode, but the"
					+ " connection factory is " + connectionFactory);
		}
		this.connectionFactory = (LettuceConnectionFactory) connectionFactory;
		this.onRelease = onRelease;
	}

	/**
	 * Whether {@code connectionFactory} connects to a Redis Cluster with Lettuce. Loads
	 * Lettuce's classes: call only when the factory is Lettuce's.
	 */
	static boolean isLettuceCluster(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
	}

	/**
	 * Makes sure the releases of the lock {@code key} reach this instance, waiting for
	 * the subscription's confirmation at most until {@code deadlineNanos}; marks the
	 * channel as wanted now.
	 * @return whether its releases will be announced to this instance
	 */
	boolean ensureActive(String key, long deadlineNanos) {
		StatefulRedisClusterPubSubConnection<String, String> connection = connection(deadlineNanos);
		if (connection == null) {
			return false;
		}
		return await(this.channels.want(key), deadlineNanos);
	}

	/** How many lock channels this instance is subscribed to (or subscribing). */
	int subscribedChannels() {
		return this.channels.size();
	}

	private @Nullable StatefulRedisClusterPubSubConnection<String, String> connection(long deadlineNanos) {
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		if (current != null || this.closed || System.nanoTime() - this.nextOpenAttemptNanos < 0) {
			return current;
		}
		try {
			if (!this.opening.tryLock(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				return null;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		try {
			if (this.connection == null && !this.closed && System.nanoTime() - this.nextOpenAttemptNanos >= 0) {
				open();
			}
			return this.connection;
		}
		finally {
			this.opening.unlock();
		}
	}

	private void open() {
		try {
			RedisClusterClient client = (RedisClusterClient) this.connectionFactory.getRequiredNativeClient();
			StatefulRedisClusterPubSubConnection<String, String> opened = client.connectPubSub(StringCodec.UTF8);
			opened.setNodeMessagePropagation(true);
			opened.addListener(this);
			this.client = client;
			this.topologyEvents = client.getResources()
				.eventBus()
				.get()
				.filter(ClusterTopologyChangedEvent.class::isInstance)
				.subscribe((event) -> resubscribeMoved());
			long sweepMillis = Math.max(1, Math.min(MAX_SWEEP_INTERVAL_MILLIS, this.idleNanos / 2_000_000));
			this.sweeper = client.getResources()
				.eventExecutorGroup()
				.scheduleAtFixedRate(() -> this.channels.unsubscribeIdle(this.idleNanos), sweepMillis, sweepMillis,
						TimeUnit.MILLISECONDS);
			this.connection = opened;
			if (this.closed) {
				close();
			}
		}
		catch (RuntimeException ex) {
			this.nextOpenAttemptNanos = System.nanoTime() + RETRY_AFTER_FAILURE_NANOS;
			logger.warn("Could not open the cluster pub/sub connection for lock releases; waiters re-check"
					+ " periodically instead: " + ex);
		}
	}

	/**
	 * The master serving {@code slot} in the client's view of the cluster, or
	 * {@code null} if none does.
	 */
	private @Nullable RedisClusterNode masterBySlot(int slot) {
		RedisClusterClient client = this.client;
		return (client != null) ? client.getPartitions().getMasterBySlot(slot) : null;
	}

	private void refreshTopology() {
		long now = System.nanoTime();
		RedisClusterClient client = this.client;
		if (client == null || this.closed || now - this.nextRefreshNanos < 0) {
			return;
		}
		this.nextRefreshNanos = now + RETRY_AFTER_FAILURE_NANOS;
		client.refreshPartitionsAsync().whenComplete((ignored, failure) -> {
			if (failure == null) {
				resubscribeMoved();
			}
		});
	}

	/**
	 * Re-subscribes every channel whose slot is now served by another master, or whose
	 * connection is closed.
	 */
	private void resubscribeMoved() {
		if (!this.closed) {
			this.channels.resubscribeMoved();
		}
	}

	@Override
	public void smessage(RedisClusterNode node, String channel, String message) {
		this.onRelease.accept(message);
	}

	@Override
	public void message(RedisClusterNode node, String channel, String message) {
		// Classic channels, on servers without sharded pub/sub.
		if (this.channels.isWanted(channel)) {
			this.onRelease.accept(message);
		}
	}

	/**
	 * A node ends a shard channel subscription by itself when the channel's slot stops
	 * being served there (a slot migration, a failover): subscribe it again where the
	 * slot is now, if a waiter still wants it. The unsubscriptions of
	 * {@link ShardChannels#unsubscribeIdle} removed the channel first, so they are not
	 * re-subscribed.
	 */
	@Override
	public void sunsubscribed(RedisClusterNode node, String name, long count) {
		if (!this.closed && this.channels.endedByNode(node, name)) {
			refreshTopology();
		}
	}

	@Override
	public void close() {
		this.closed = true;
		Disposable events = this.topologyEvents;
		if (events != null) {
			events.dispose();
		}
		java.util.concurrent.Future<?> sweep = this.sweeper;
		if (sweep != null) {
			sweep.cancel(false);
		}
		StatefulRedisClusterPubSubConnection<String, String> current = this.connection;
		this.connection = null;
		if (current != null) {
			BoundedClose.close("the cluster release subscription", () -> {
				try {
					current.close();
				}
				catch (RuntimeException ex) {
					logger.debug("Closing the cluster release subscription failed", ex);
				}
			}, BoundedClose.DEFAULT_TIMEOUT);
		}
		this.channels.clear();
	}

	private static boolean await(CompletableFuture<?> confirmation, long deadlineNanos) {
		try {
			confirmation.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		catch (ExecutionException | TimeoutException ex) {
			return false;
		}
	}

}
