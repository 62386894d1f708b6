package io.github.distlock.test;

import io.github.distlock.testsupport.RedisServer;

import org.springframework.beans.factory.DisposableBean;

/**
 * What each Boot line's {@code LocalRedisServerConnectionDetails} shares: the server of a
 * {@link LocalRedisServer @LocalRedisServer}, stopped with the bean. The line's class
 * adds only the connection-details interface of its Boot line. For the kits' modules;
 * applications use {@link LocalRedisServer @LocalRedisServer}.
 */
public abstract class LocalRedisServerDetailsSupport implements DisposableBean {

	private final RedisServer server;

	protected LocalRedisServerDetailsSupport(RedisServer server) {
		this.server = server;
	}

	/**
	 * Starts the server of a {@link LocalRedisServer @LocalRedisServer}.
	 * @param port the port, or 0 for a free one
	 * @return the running server
	 */
	protected static RedisServer startServer(int port) {
		return (port != 0) ? RedisServer.builder().port(port).start() : RedisServer.start();
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
