package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A temporary directory for the files a topology keeps outside its servers' own
 * directories: the cluster's {@code nodes.conf} files, which must survive a
 * {@link RedisServer#restart()} so a node comes back with its identity, and the
 * configuration files Sentinel rewrites. Deleted on {@link #close()}, or at JVM exit if a
 * test never got there.
 */
final class TopologyDirectory implements AutoCloseable {

	private static final Set<Path> OPEN_DIRECTORIES = ConcurrentHashMap.newKeySet();

	private static final int REAPER_ATTEMPTS = 10;

	private static final long REAPER_PAUSE_MILLIS = 100;

	static {
		Runtime.getRuntime()
			.addShutdownHook(
					new Thread(TopologyDirectory::deleteOpenDirectories, "distlock-topology-directory-reaper"));
	}

	private final Path path;

	private TopologyDirectory(Path path) {
		this.path = path;
	}

	static TopologyDirectory create(String prefix) {
		try {
			TopologyDirectory directory = new TopologyDirectory(Files.createTempDirectory(prefix));
			OPEN_DIRECTORIES.add(directory.path);
			return directory;
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not create a temporary directory " + prefix + "*", e);
		}
	}

	Path path() {
		return path;
	}

	Path resolve(String fileName) {
		return path.resolve(fileName);
	}

	@Override
	public void close() {
		OPEN_DIRECTORIES.remove(path);
		deleteQuietly(path);
	}

	@Override
	public String toString() {
		return path.toString();
	}

	/**
	 * Runs on JVM exit, while {@link RedisServer}'s hook kills the servers: a Sentinel
	 * still rewriting its file may recreate one, so look again a few times.
	 */
	private static void deleteOpenDirectories() {
		for (int attempt = 0; attempt < REAPER_ATTEMPTS && !OPEN_DIRECTORIES.isEmpty(); attempt++) {
			for (Path directory : OPEN_DIRECTORIES) {
				deleteQuietly(directory);
				if (!Files.exists(directory)) {
					OPEN_DIRECTORIES.remove(directory);
				}
			}
			if (!OPEN_DIRECTORIES.isEmpty()) {
				try {
					Thread.sleep(REAPER_PAUSE_MILLIS);
				}
				catch (InterruptedException e) {
					return;
				}
			}
		}
	}

	private static void deleteQuietly(Path root) {
		try (Stream<Path> paths = Files.walk(root)) {
			paths.sorted(Comparator.reverseOrder()).forEach(entry -> entry.toFile().delete());
		}
		catch (IOException | UncheckedIOException e) {
			// Already gone, or a file vanished while walking: nothing left worth
			// reporting.
		}
	}

}
