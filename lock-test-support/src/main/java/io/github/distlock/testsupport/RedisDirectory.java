package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The directory of one {@link RedisServer}: its log ({@code redis.log}, which keeps the
 * history across restarts) and its data files.
 */
final class RedisDirectory {

	static final String LOG_FILE_NAME = "redis.log";

	private final Path path;

	private final Path logFile;

	private RedisDirectory(Path path) {
		this.path = path;
		this.logFile = path.resolve(LOG_FILE_NAME);
	}

	/** Creates a new, empty temporary directory. */
	static RedisDirectory create() {
		try {
			return new RedisDirectory(Files.createTempDirectory("distlock-redis-server-"));
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not create a directory for redis-server", e);
		}
	}

	Path path() {
		return path;
	}

	Path logFile() {
		return logFile;
	}

	/**
	 * The last {@code lines} lines of the log; never fails, since it is called while
	 * building failure messages.
	 */
	String logTail(int lines) {
		try {
			String[] all = new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8).split("\\R");
			return String.join("\n", Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
		}
		catch (NoSuchFileException e) {
			return "";
		}
		catch (IOException e) {
			// Called while building failure messages, so report instead of masking the
			// original failure.
			return "(could not read " + logFile + ": " + e + ")";
		}
	}

	/** The length of the log in bytes, {@code 0} if it cannot be read. */
	long logLength() {
		try {
			return Files.exists(logFile) ? Files.size(logFile) : 0;
		}
		catch (IOException e) {
			return 0;
		}
	}

	/** What was logged after the first {@code offset} bytes. */
	String logSince(long offset) {
		try {
			byte[] all = Files.readAllBytes(logFile);
			int from = (int) Math.min(offset, all.length);
			return new String(all, from, all.length - from, StandardCharsets.UTF_8);
		}
		catch (IOException e) {
			return "";
		}
	}

	/**
	 * Everything in the directory except the log, which should keep the history across
	 * restarts.
	 */
	void deleteDataFiles() {
		try (Stream<Path> entries = Files.list(path)) {
			entries.filter(entry -> !entry.equals(logFile)).forEach(RedisDirectory::deleteRecursively);
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not delete the data files in " + path, e);
		}
	}

	/** Deletes the directory with everything in it. */
	void delete() {
		deleteRecursively(path);
	}

	@Override
	public String toString() {
		return path.toString();
	}

	private static void deleteRecursively(Path root) {
		if (!Files.exists(root)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(root)) {
			paths.sorted(Comparator.reverseOrder()).forEach(path -> {
				try {
					Files.deleteIfExists(path);
				}
				catch (IOException e) {
					throw new UncheckedIOException(e);
				}
			});
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not delete " + root, e);
		}
	}

}
