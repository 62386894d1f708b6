package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.QuorumLockStore;
import io.github.distlock.redis.RedisLockSettings;
import io.github.distlock.redis.RedisLockStore;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisNode;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Builds the lock service of a {@link NemesisClient} for its topology, as an application
 * instance would have it (its own connection factories), and closes them on
 * {@link #close()}. Each is a {@link LockEngine} on the given runtime (so that the
 * nemesis can slow its renewal threads, {@link RenewalStalls}) over:
 * <ul>
 * <li>{@code quorum}: a {@link QuorumLockStore} on every address of {@code nodes} (each a
 * {@code TcpProxy} of this client in front of one node), waiting at most {@code timeout}
 * for a node.</li>
 * <li>{@code sentinel}: a {@link RedisLockStore} on the master that the Sentinels at
 * {@code nodes} name {@code master} (the engine and store of a the
 * {@link io.github.distlock.core.LockEngine} over the Redis store).</li>
 * <li>{@code cluster}: a {@link RedisLockStore} on the Redis Cluster that {@code nodes}
 * belong to.</li>
 * </ul>
 */
final class NemesisLockServices implements AutoCloseable {

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final Duration commandTimeout;

	NemesisLockServices(Duration commandTimeout) {
		this.commandTimeout = commandTimeout;
	}

	LockEngine create(String store, List<RedisNode> nodes, String master, Duration lease, Duration retention,
			EngineRuntime runtime) {
		return switch (store) {
			case "quorum" -> new LockEngine(quorum(nodes, retention), lease, runtime);
			case "sentinel" -> new LockEngine(sentinel(nodes, master, lease, retention), lease, runtime);
			case "cluster" -> new LockEngine(cluster(nodes, lease, retention), lease, runtime);
			default -> throw new IllegalArgumentException("unknown --store=" + store);
		};
	}

	private QuorumLockStore quorum(List<RedisNode> nodes, Duration retention) {
		List<QuorumLockStore.Node> members = new ArrayList<>();
		for (RedisNode node : nodes) {
			LettuceConnectionFactory factory = factory(
					new RedisStandaloneConfiguration(node.getHost(), node.getPort()));
			members.add(new QuorumLockStore.Node("redis://" + node.asString(), new StringRedisTemplate(factory)));
		}
		QuorumLockStore store = new QuorumLockStore(members, "distlock:", retention, this.commandTimeout);
		this.closeables.add(store);
		return store;
	}

	private RedisLockStore sentinel(List<RedisNode> sentinels, String master, Duration lease, Duration retention) {
		RedisSentinelConfiguration configuration = new RedisSentinelConfiguration().master(master);
		sentinels.forEach(configuration::addSentinel);
		return redis(configuration, lease, retention);
	}

	private RedisLockStore cluster(List<RedisNode> nodes, Duration lease, Duration retention) {
		RedisClusterConfiguration configuration = new RedisClusterConfiguration();
		nodes.forEach(configuration::addClusterNode);
		return redis(configuration, lease, retention);
	}

	private RedisLockStore redis(RedisConfiguration configuration, Duration lease, Duration retention) {
		RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory(configuration)),
				RedisLockSettings.defaults().withLeaseTime(lease).withFencingRetention(retention));
		this.closeables.add(store);
		return store;
	}

	/**
	 * Connects eagerly; commands are rejected at once while disconnected (as the quorum
	 * configuration does), so a node that is down costs no command timeout.
	 */
	private LettuceConnectionFactory factory(RedisConfiguration configuration) {
		// Cluster options are client options too; the refresh only matters for a cluster,
		// as Spring Boot configures it with adaptive refresh and a period of 1 s.
		ClientOptions options = ClusterClientOptions.builder()
			.socketOptions(SocketOptions.builder().connectTimeout(this.commandTimeout).build())
			.timeoutOptions(TimeoutOptions.enabled())
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
				.enableAllAdaptiveRefreshTriggers()
				.enablePeriodicRefresh(Duration.ofSeconds(1))
				.build())
			.build();
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(this.commandTimeout)
			.shutdownTimeout(Duration.ZERO)
			.clientOptions(options)
			.build();
		LettuceConnectionFactory factory;
		if (configuration instanceof RedisSentinelConfiguration sentinel) {
			factory = new LettuceConnectionFactory(sentinel, client);
		}
		else if (configuration instanceof RedisClusterConfiguration cluster) {
			factory = new LettuceConnectionFactory(cluster, client);
		}
		else {
			factory = new LettuceConnectionFactory((RedisStandaloneConfiguration) configuration, client);
		}
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	@Override
	public void close() {
		for (AutoCloseable closeable : this.closeables) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// Closing the rest anyway: the JVM exits next.
			}
		}
		this.factories.forEach(LettuceConnectionFactory::destroy);
	}

}
