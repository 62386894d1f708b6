package io.github.distlock.benchmarks;

import io.github.distlock.testsupport.RedisServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Spring Data Redis connection factories as Boot would configure them by default
 * (Lettuce, shared connection).
 */
final class LettuceFactories {

	private LettuceFactories() {
	}

	static LettuceConnectionFactory started(RedisServer redis) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(redis.host(), redis.port()));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
