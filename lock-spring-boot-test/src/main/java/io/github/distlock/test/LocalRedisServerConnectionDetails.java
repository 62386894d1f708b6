package io.github.distlock.test;

import io.github.distlock.testsupport.RedisServer;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/**
 * Spring Boot 4's Redis connection details of a
 * {@link LocalRedisServer @LocalRedisServer}: a standalone server on a free loopback
 * port, started with this bean and stopped with it.
 */
public final class LocalRedisServerConnectionDetails extends LocalRedisServerDetailsSupport
		implements DataRedisConnectionDetails {

	private LocalRedisServerConnectionDetails(RedisServer server) {
		super(server);
	}

	static LocalRedisServerConnectionDetails start() {
		return new LocalRedisServerConnectionDetails(RedisServer.start());
	}

	@Override
	public Standalone getStandalone() {
		return Standalone.of(server().host(), server().port());
	}

}
