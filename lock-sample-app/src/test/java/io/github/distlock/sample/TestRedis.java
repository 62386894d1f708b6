package io.github.distlock.sample;

import io.github.distlock.testsupport.RedisServer;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * One {@code redis-server} on a free port for every test of this JVM, never the shared
 * one on 6379. It is killed by {@link RedisServer}'s shutdown hook when the test JVM
 * exits.
 */
public final class TestRedis {

	private static RedisServer server;

	private TestRedis() {
	}

	public static synchronized RedisServer server() {
		if (server == null) {
			server = RedisServer.start();
		}
		return server;
	}

	/** Points {@code spring.data.redis.*} at the test server. */
	public static void register(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> server().host());
		registry.add("spring.data.redis.port", () -> server().port());
	}

}
