package io.github.distlock.testsupport;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

/**
 * Commands to one {@link RedisServer}, each over a fresh {@link RespConnection} that
 * authenticates first if the server requires a password.
 */
final class RedisCommands {

	static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

	private final IntSupplier port;

	private final String password;

	/**
	 * @param port the server's current port
	 * @param password the server's password, {@code null} for none
	 */
	RedisCommands(IntSupplier port, String password) {
		this.port = port;
		this.password = password;
	}

	/**
	 * Sends one command and renders the reply as {@link RedisServer#command} describes.
	 */
	String command(Duration timeout, String... args) {
		return render(call(timeout, args));
	}

	/** The keys matching {@code pattern}, sorted, found with SCAN. */
	List<String> keys(String pattern) {
		Set<String> keys = new TreeSet<>(); // SCAN may return a key more than once
		try (RespConnection connection = connect(COMMAND_TIMEOUT)) {
			String cursor = "0";
			do {
				List<?> page = (List<?>) connection.call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
				cursor = (String) page.get(0);
				for (Object key : (List<?>) page.get(1)) {
					keys.add((String) key);
				}
			}
			while (!cursor.equals("0"));
		}
		catch (IOException e) {
			throw unreachable("SCAN", e);
		}
		return List.copyOf(keys);
	}

	/**
	 * @return whether Redis accepted SHUTDOWN, which it shows by hanging up without a
	 * reply
	 */
	boolean requestShutdown() {
		RespConnection connection;
		try {
			connection = connect(COMMAND_TIMEOUT);
		}
		catch (IOException | RedisServerException e) {
			return false;
		}
		try (connection) {
			connection.send("SHUTDOWN", "NOSAVE");
			connection.readReply();
			return false; // any reply at all means it refused
		}
		catch (EOFException | SocketException e) {
			return true;
		}
		catch (IOException | RedisServerException e) {
			return false;
		}
	}

	/**
	 * Whether the server on the port answers PING and is process {@code pid}: after
	 * losing a port race, PING could otherwise be answered by whichever server won it.
	 */
	boolean answersPingAsProcess(long pid, Duration timeout) {
		try (RespConnection connection = connect(timeout)) {
			if (!"PONG".equals(connection.call("PING"))) {
				return false;
			}
			String info = (String) connection.call("INFO", "server");
			return info.lines().anyMatch(line -> line.trim().equals("process_id:" + pid));
		}
		catch (IOException | RedisServerException e) {
			return false; // not listening yet, or -LOADING while it reads its data files
		}
	}

	private Object call(Duration timeout, String... args) {
		if (args.length == 0) {
			throw new IllegalArgumentException("a Redis command needs at least its name");
		}
		try (RespConnection connection = connect(timeout)) {
			return connection.call(args);
		}
		catch (IOException e) {
			throw unreachable(args[0], e);
		}
	}

	private RespConnection connect(Duration timeout) throws IOException {
		RespConnection connection = RespConnection.open(RedisServer.LOOPBACK, port.getAsInt(), timeout);
		if (password != null) {
			try {
				connection.call("AUTH", password);
			}
			catch (IOException | RuntimeException e) {
				connection.close();
				throw e;
			}
		}
		return connection;
	}

	private UncheckedIOException unreachable(String commandName, IOException e) {
		return new UncheckedIOException(
				commandName + " to redis-server at " + RedisServer.LOOPBACK + ":" + port.getAsInt() + " failed: " + e,
				e);
	}

	private static String render(Object reply) {
		if (reply instanceof List<?> elements) {
			return elements.stream()
				.map(element -> element == null ? "null" : render(element))
				.collect(Collectors.joining("\n"));
		}
		return reply == null ? null : reply.toString();
	}

}
