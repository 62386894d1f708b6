package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Lock services on a Redis Cluster as separate application instances would have them:
 * each with its own Lettuce connection factory in cluster mode, configured as Spring Boot
 * configures it from {@code spring.data.redis.cluster.nodes} with
 * {@code spring.data.redis.lettuce.cluster.refresh.adaptive=true} and
 * {@code refresh.period=1s}. Closes everything it made.
 */
final class ClusterLockClients implements AutoCloseable {

	private final List<String> nodes;

	private final List<RedisLockService> services = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	/**
	 * @param nodes {@code host:port} of the nodes, comma-separated, as in
	 * {@code spring.data.redis.cluster.nodes}
	 */
	ClusterLockClients(String nodes) {
		this.nodes = List.of(nodes.split(","));
	}

	RedisLockService newService() {
		return newService(RedisLockSettings.defaults());
	}

	RedisLockService newService(RedisLockSettings settings) {
		RedisLockService service = new RedisLockService(new StringRedisTemplate(newConnectionFactory()), settings);
		this.services.add(service);
		return service;
	}

	RedisLockStore newStore() {
		return new RedisLockStore(new StringRedisTemplate(newConnectionFactory()), RedisLockSettings.defaults());
	}

	LettuceConnectionFactory newConnectionFactory() {
		ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
			.enableAllAdaptiveRefreshTriggers()
			.enablePeriodicRefresh(Duration.ofSeconds(1))
			.build();
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(2))
			.clientOptions(ClusterClientOptions.builder().topologyRefreshOptions(refresh).build())
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisClusterConfiguration(this.nodes),
				client);
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	@Override
	public void close() {
		this.services.forEach(RedisLockService::destroy);
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.services.clear();
		this.factories.clear();
	}

}
