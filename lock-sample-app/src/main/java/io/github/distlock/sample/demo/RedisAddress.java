package io.github.distlock.sample.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Where a Redis server listens.
 *
 * @param host host name or address
 * @param port TCP port
 */
public record RedisAddress(String host, int port) {

	private static final int PROBE_TIMEOUT_MILLIS = 1_000;

	/** Where the application looks by default ({@code spring.data.redis.*} defaults). */
	public static final RedisAddress DEFAULT = new RedisAddress("localhost", 6379);

	public RedisAddress {
		if (host.isBlank()) {
			throw new IllegalArgumentException("Redis host must not be blank");
		}
		if (port < 1 || port > 65_535) {
			throw new IllegalArgumentException("Redis port must be between 1 and 65535, was " + port);
		}
	}

	/**
	 * Parses {@code host:port}.
	 * @param option the option it came from, for the error message
	 */
	public static RedisAddress parse(String value, String option) {
		int colon = value.lastIndexOf(':');
		if (colon <= 0 || colon == value.length() - 1) {
			throw new IllegalArgumentException(option + " must be host:port, was '" + value + "'");
		}
		try {
			return new RedisAddress(value.substring(0, colon), Integer.parseInt(value.substring(colon + 1)));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(option + " must be host:port with a numeric port, was '" + value + "'");
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(option + ": " + ex.getMessage(), ex);
		}
	}

	/** Whether a Redis answers {@code PING} here without a password. */
	public boolean answersPing() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(this.host, this.port), PROBE_TIMEOUT_MILLIS);
			socket.setSoTimeout(PROBE_TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			return "+PONG".equals(in.readLine());
		}
		catch (IOException ex) {
			return false;
		}
	}

	@Override
	public String toString() {
		return this.host + ":" + this.port;
	}

}
