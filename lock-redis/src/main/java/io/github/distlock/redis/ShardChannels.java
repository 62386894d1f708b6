package io.github.distlock.redis;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The per-lock bookkeeping of {@link ShardedReleaseSubscription}: which lock channels a
 * waiter of this instance wants, when one last asked, and at which node each is
 * subscribed. Subscribes a channel at the master of its slot ({@code SSUBSCRIBE}, or
 * {@code SUBSCRIBE} once a node refused it as unknown: before Redis 7), unsubscribes it
 * there when it moves or goes idle. Following the topology is the subscription's job: it
 * calls {@link #resubscribeMoved()} and {@link #endedByNode} when the cluster changed.
 */
final class ShardChannels {

	private static final Log logger = LogFactory.getLog(ShardedReleaseSubscription.class);

	private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();

	private final Supplier<@Nullable StatefulRedisClusterPubSubConnection<String, String>> connection;

	/** The master serving a slot in the client's view of the cluster, or null. */
	private final IntFunction<@Nullable RedisClusterNode> masterBySlot;

	/** Asks the client to read the cluster's topology again (at most once a second). */
	private final Runnable refreshTopology;

	/** Set once a node refused {@code SSUBSCRIBE} as an unknown command. */
	private volatile boolean broadcast;

	ShardChannels(Supplier<@Nullable StatefulRedisClusterPubSubConnection<String, String>> connection,
			IntFunction<@Nullable RedisClusterNode> masterBySlot, Runnable refreshTopology) {
		this.connection = connection;
		this.masterBySlot = masterBySlot;
		this.refreshTopology = refreshTopology;
	}

	/**
	 * Marks the channel of the lock {@code key} wanted now, (re-)subscribing it unless it
	 * is subscribed, or being subscribed, at its slot's master.
	 * @return completes when the node confirmed the subscription
	 */
	CompletableFuture<?> want(String key) {
		Channel channel = this.channels.computeIfAbsent(LockKeys.releaseShardChannel(key), Channel::new);
		channel.wantedAt = System.nanoTime();
		CompletableFuture<?> confirmation = channel.confirmation;
		if (confirmation == null || confirmation.isCompletedExceptionally() || !channel.isCurrent(owner(channel))) {
			confirmation = subscribe(channel);
		}
		return confirmation;
	}

	/** Whether a waiter of this instance wants {@code name}, a classic channel. */
	boolean isWanted(String name) {
		return this.channels.containsKey(name);
	}

	int size() {
		return this.channels.size();
	}

	/**
	 * Re-subscribes every channel whose slot is now served by another master, or whose
	 * connection is closed.
	 */
	void resubscribeMoved() {
		for (Channel channel : this.channels.values()) {
			if (!channel.isCurrent(owner(channel))) {
				subscribe(channel);
			}
		}
	}

	/**
	 * {@code node} ended the subscription of {@code name} by itself (its slot stopped
	 * being served there): forgets the confirmation, so the next waiter or
	 * {@link #resubscribeMoved()} subscribes it where the slot is now.
	 * @return whether the channel is still wanted, so the topology should be read again
	 */
	boolean endedByNode(@Nullable RedisClusterNode node, String name) {
		Channel channel = this.channels.get(name);
		if (channel == null || (node != null && !node.getNodeId().equals(channel.nodeId))) {
			return false;
		}
		synchronized (channel) {
			CompletableFuture<?> confirmation = channel.confirmation;
			if (confirmation != null && confirmation.isDone()) {
				channel.confirmation = null;
			}
		}
		return true;
	}

	/**
	 * Unsubscribes and forgets the channels no waiter asked for in {@code idleNanos}.
	 * They are removed first, so the node's confirmation does not re-subscribe them.
	 */
	void unsubscribeIdle(long idleNanos) {
		long now = System.nanoTime();
		this.channels.values().removeIf((channel) -> {
			if (now - channel.wantedAt < idleNanos) {
				return false;
			}
			StatefulRedisPubSubConnection<String, String> node = channel.node;
			if (node != null && node.isOpen()) {
				if (this.broadcast) {
					node.async().unsubscribe(channel.name);
				}
				else {
					node.async().sunsubscribe(channel.name);
				}
			}
			return true;
		});
	}

	void clear() {
		this.channels.clear();
	}

	private @Nullable RedisClusterNode owner(Channel channel) {
		return this.masterBySlot.apply(channel.slot);
	}

	/**
	 * (Re-)subscribes {@code channel} at the master of its slot, and unsubscribes it
	 * where it was before if that connection is still open.
	 */
	private CompletableFuture<?> subscribe(Channel channel) {
		StatefulRedisClusterPubSubConnection<String, String> connection = this.connection.get();
		synchronized (channel) {
			CompletableFuture<?> pending = channel.confirmation;
			RedisClusterNode owner = owner(channel);
			if (pending != null && !pending.isDone() && owner != null && owner.getNodeId().equals(channel.nodeId)) {
				return pending;
			}
			if (connection == null || owner == null) {
				this.refreshTopology.run();
				return CompletableFuture.failedFuture(new IllegalStateException(
						"No connection or no master known for slot " + channel.slot + " of " + channel.name));
			}
			StatefulRedisPubSubConnection<String, String> previous = channel.node;
			String nodeId = owner.getNodeId();
			CompletableFuture<?> confirmation = connection.getConnectionAsync(nodeId).thenCompose((node) -> {
				synchronized (channel) {
					channel.node = node;
				}
				if (previous != null && previous != node && previous.isOpen()) {
					previous.async().sunsubscribe(channel.name);
				}
				return (this.broadcast ? node.async().subscribe(channel.name) : node.async().ssubscribe(channel.name))
					.toCompletableFuture();
			}).handle((ignored, failure) -> {
				if (failure != null) {
					return fellBackOrFailed(channel, failure);
				}
				return CompletableFuture.completedFuture(null);
			}).thenCompose((result) -> result);
			channel.nodeId = nodeId;
			channel.confirmation = confirmation;
			return confirmation;
		}
	}

	/**
	 * After a failed subscription: a server without sharded pub/sub switches to classic
	 * channels; any other failure refreshes the topology, and the next waiter tries
	 * again.
	 */
	private CompletableFuture<?> fellBackOrFailed(Channel channel, Throwable failure) {
		String message = String.valueOf(rootCause(failure).getMessage());
		if (!this.broadcast && message.toLowerCase(Locale.ROOT).contains("unknown command")) {
			this.broadcast = true;
			logger.info("Redis does not know SSUBSCRIBE (before Redis 7): lock releases are subscribed with"
					+ " classic SUBSCRIBE, and published by PUBLISH, which the cluster broadcasts to every node");
			StatefulRedisPubSubConnection<String, String> node = channel.node;
			if (node != null) {
				return node.async().subscribe(channel.name).toCompletableFuture();
			}
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Subscribing to releases on " + channel.name + " failed; refreshing the cluster topology: "
					+ failure);
		}
		this.refreshTopology.run();
		return CompletableFuture.failedFuture(failure);
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause;
	}

	/** One lock's shard channel and where it is subscribed. */
	private static final class Channel {

		final String name;

		final int slot;

		volatile long wantedAt = System.nanoTime();

		/** The node it is subscribed (or being subscribed) at. */
		volatile @Nullable String nodeId;

		volatile @Nullable StatefulRedisPubSubConnection<String, String> node;

		/** Completes when the node confirmed the subscription; null after it ended. */
		volatile @Nullable CompletableFuture<?> confirmation;

		Channel(String name) {
			this.name = name;
			this.slot = SlotHash.getSlot(name);
		}

		/**
		 * Whether it is subscribed, or being subscribed, at {@code owner} on an open
		 * connection.
		 */
		boolean isCurrent(@Nullable RedisClusterNode owner) {
			CompletableFuture<?> current = this.confirmation;
			StatefulRedisPubSubConnection<String, String> on = this.node;
			if (current == null || current.isCompletedExceptionally() || owner == null
					|| !owner.getNodeId().equals(this.nodeId)) {
				return false;
			}
			return !current.isDone() || (on != null && on.isOpen());
		}

	}

}
