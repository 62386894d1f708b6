package io.github.distlock.benchmarks;

import java.util.List;

import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisServer;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Spring Data Redis connection factories as Boot would configure them by default
 * (Lettuce, shared connection), on one server or a cluster.
 */
final class LettuceFactories {

	private LettuceFactories() {
	}

	static LettuceConnectionFactory started(RedisServer redis) {
		return started(new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port())));
	}

	/**
	 * A factory in cluster mode, every node as a seed, as Boot builds it from
	 * {@code spring.data.redis.cluster.nodes} alone (no topology refresh).
	 */
	static LettuceConnectionFactory started(RedisCluster cluster) {
		return started(
				new LettuceConnectionFactory(new RedisClusterConfiguration(List.of(cluster.nodes().split(",")))));
	}

	private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
