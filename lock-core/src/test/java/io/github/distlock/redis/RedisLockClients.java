package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.testsupport.RedisServer;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Lock services as separate application instances would have them: each with its own
 * connection factory. Closes everything it made.
 */
public final class RedisLockClients implements AutoCloseable {

	private final RedisServer server;

	private final List<RedisLockService> services = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	public RedisLockClients(RedisServer server) {
		this.server = server;
	}

	public RedisLockService newService() {
		return newService(RedisLockSettings.defaults());
	}

	public RedisLockService newService(RedisLockSettings settings) {
		RedisLockService service = new RedisLockService(new StringRedisTemplate(newConnectionFactory()), settings);
		this.services.add(service);
		return service;
	}

	public LettuceConnectionFactory newConnectionFactory() {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(2))
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.server.host(), this.server.port()), client);
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
