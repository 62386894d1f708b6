package io.github.distlock.testsupport;

/**
 * Thrown when a test Redis server cannot be found, started or stopped, or when it answers
 * a command with an error reply ({@code -ERR ...}, {@code -WRONGTYPE ...}, ...), in which
 * case the message is Redis's own text.
 *
 * <p>
 * Unchecked so that test code can call {@link RedisServer} without ceremony.
 */
public class RedisServerException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public RedisServerException(String message) {
		super(message);
	}

	public RedisServerException(String message, Throwable cause) {
		super(message, cause);
	}

}
