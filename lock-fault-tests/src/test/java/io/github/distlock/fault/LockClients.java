package io.github.distlock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.RedisLockSettings;
import io.github.distlock.redis.RedisLockStore;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Lock services as separate application instances would have them, each with its own
 * Lettuce connection factory to one address (a Redis or a proxy in front of it) and a
 * short command timeout. Closing shuts every service down (releasing its locks) and then
 * its connections.
 */
final class LockClients implements AutoCloseable {

	private final String host;

	private final int port;

	private final Duration commandTimeout;

	private final List<LockEngine> services = new ArrayList<>();

	private final List<RedisLockStore> stores = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	LockClients(String host, int port, Duration commandTimeout) {
		this.host = host;
		this.port = port;
		this.commandTimeout = commandTimeout;
	}

	/**
	 * A connected service with this lease and fencing retention, key prefix
	 * {@code distlock:}. Connected first because an acquire whose reply comes after its
	 * lease counts as not acquired, and a cold JVM's first connection can take that long.
	 */
	LockEngine newService(Duration lease, Duration fencingRetention) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(this.commandTimeout)
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.host, this.port), client);
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory),
				RedisLockSettings.defaults().withLeaseTime(lease).withFencingRetention(fencingRetention));
		this.stores.add(store);
		LockEngine service = new LockEngine(store, lease);
		this.services.add(service);
		connect(service);
		return service;
	}

	/**
	 * Connects, retrying: on a loaded machine a cold JVM may not finish Lettuce's
	 * connection handshake within a short command timeout.
	 */
	private static void connect(LockEngine service) {
		for (int attempt = 1;; attempt++) {
			try {
				service.isLocked("warm-up");
				return;
			}
			catch (RuntimeException ex) {
				if (attempt == 20) {
					throw ex;
				}
				try {
					Thread.sleep(200);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw ex;
				}
			}
		}
	}

	@Override
	public void close() {
		this.services.forEach(LockEngine::destroy);
		this.stores.forEach(RedisLockStore::close);
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.services.clear();
		this.stores.clear();
		this.factories.clear();
	}

}
