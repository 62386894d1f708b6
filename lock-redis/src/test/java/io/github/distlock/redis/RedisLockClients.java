package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServer;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Lock services as separate application instances would have them: each with its own
 * connection factory, to one {@code redis-server} or, made by {@link #onCluster}, to a
 * Redis Cluster. Closes everything it made.
 */
public final class RedisLockClients implements AutoCloseable {

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	private final Supplier<LettuceConnectionFactory> unstartedFactories;

	private final List<LockEngine> services = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	/**
	 * Clients of one {@code redis-server}.
	 * @param server the server
	 */
	public RedisLockClients(RedisServer server) {
		this(() -> new LettuceConnectionFactory(new RedisStandaloneConfiguration(server.host(), server.port()),
				LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT).build()));
	}

	private RedisLockClients(Supplier<LettuceConnectionFactory> unstartedFactories) {
		this.unstartedFactories = unstartedFactories;
	}

	/**
	 * Clients of a Redis Cluster, each with a Lettuce connection factory in cluster mode,
	 * configured as Spring Boot configures it from
	 * {@code spring.data.redis.cluster.nodes} with
	 * {@code spring.data.redis.lettuce.cluster.refresh.adaptive=true} and
	 * {@code refresh.period=1s}.
	 * @param nodes {@code host:port} of the nodes, comma-separated, as in
	 * {@code spring.data.redis.cluster.nodes}
	 * @return the clients
	 */
	static RedisLockClients onCluster(String nodes) {
		List<String> nodeList = List.of(nodes.split(","));
		return new RedisLockClients(() -> {
			ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
				.enableAllAdaptiveRefreshTriggers()
				.enablePeriodicRefresh(Duration.ofSeconds(1))
				.build();
			LettuceClientConfiguration client = LettuceClientConfiguration.builder()
				.commandTimeout(COMMAND_TIMEOUT)
				.clientOptions(ClusterClientOptions.builder().topologyRefreshOptions(refresh).build())
				.build();
			return new LettuceConnectionFactory(new RedisClusterConfiguration(nodeList), client);
		});
	}

	public LockEngine newService() {
		return newService(RedisLockSettings.defaults());
	}

	public LockEngine newService(RedisLockSettings settings) {
		LockEngine service = RedisEngines.blocking(new StringRedisTemplate(newConnectionFactory()), settings);
		this.services.add(service);
		return service;
	}

	RedisLockStore newStore() {
		return new RedisLockStore(new StringRedisTemplate(newConnectionFactory()), RedisLockSettings.defaults());
	}

	public LettuceConnectionFactory newConnectionFactory() {
		LettuceConnectionFactory factory = this.unstartedFactories.get();
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	@Override
	public void close() {
		this.services.forEach(LockEngine::destroy);
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.services.clear();
		this.factories.clear();
	}

}
