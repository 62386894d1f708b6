package io.github.distlock.boot3.test;

import io.github.distlock.test.LocalRedisServerDetailsSupport;
import io.github.distlock.testsupport.RedisServer;

import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;

/**
 * Spring Boot 3.5's Redis connection details of a
 * {@link io.github.distlock.test.LocalRedisServer @LocalRedisServer}: a standalone server
 * on a loopback port (a free one unless the annotation names one), started with this bean
 * and stopped with it.
 */
public final class LocalRedisServerConnectionDetails extends LocalRedisServerDetailsSupport
		implements RedisConnectionDetails {

	private LocalRedisServerConnectionDetails(RedisServer server) {
		super(server);
	}

	static LocalRedisServerConnectionDetails start(int port) {
		return new LocalRedisServerConnectionDetails(startServer(port));
	}

	@Override
	public Standalone getStandalone() {
		return Standalone.of(server().host(), server().port());
	}

}
