package io.github.distlock.redis;

import java.time.Duration;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import org.springframework.data.redis.RedisSystemException;

/**
 * A connection of {@link ReplicaAcknowledgedWrites}' own, used by one thread at a time,
 * and the connection to the node that serves a key.
 */
interface DedicatedConnection {

	StatefulConnection<String, String> connection();

	StatefulRedisConnection<String, String> forKey(String key);

	record Standalone(StatefulRedisConnection<String, String> connection) implements DedicatedConnection {

		@Override
		public StatefulRedisConnection<String, String> forKey(String key) {
			return this.connection;
		}

	}

	/**
	 * A cluster connection used by one thread at a time, so its connection to each master
	 * is too.
	 */
	record ClusterNodes(StatefulRedisClusterConnection<String, String> connection,
			Duration timeout) implements DedicatedConnection {

		@Override
		public StatefulRedisConnection<String, String> forKey(String key) {
			RedisClusterNode master = this.connection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
			if (master == null) {
				throw new RedisSystemException("CLUSTERDOWN no master serves the slot of lock key " + key, null);
			}
			return withTimeout(this.connection.getConnection(master.getNodeId()));
		}

		/**
		 * The connection to the node at {@code address} ({@code host:port}, as an
		 * {@code ASK} redirect names it).
		 */
		StatefulRedisConnection<String, String> forAddress(String address) {
			int colon = address.lastIndexOf(':');
			return withTimeout(this.connection.getConnection(address.substring(0, colon),
					Integer.parseInt(address.substring(colon + 1))));
		}

		private StatefulRedisConnection<String, String> withTimeout(StatefulRedisConnection<String, String> node) {
			node.setTimeout(this.timeout);
			return node;
		}

	}

}
