package io.github.distlock.test;

import io.github.distlock.testsupport.RedisServer;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/**
 * Spring Boot 4's Redis connection details of a
 * {@link LocalRedisServer @LocalRedisServer}: a standalone server on a free loopback
 * port, started with this bean and stopped with it.
 */
public final class LocalRedisServerConnectionDetails implements DataRedisConnectionDetails, DisposableBean {

	private final RedisServer server;

	private LocalRedisServerConnectionDetails(RedisServer server) {
		this.server = server;
	}

	static LocalRedisServerConnectionDetails start() {
		return new LocalRedisServerConnectionDetails(RedisServer.start());
	}

	@Override
	public Standalone getStandalone() {
		return Standalone.of(this.server.host(), this.server.port());
	}

	/**
	 * The server: its address, and commands to send it.
	 * @return the server
	 */
	public RedisServer server() {
		return this.server;
	}

	@Override
	public void destroy() {
		this.server.close();
	}

	@Override
	public String toString() {
		return "LocalRedisServer[" + this.server.host() + ":" + this.server.port() + "]";
	}

}
