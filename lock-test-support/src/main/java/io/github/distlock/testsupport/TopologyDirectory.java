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

	static {
		Runtime.getRuntime()
			.addShutdownHook(new Thread(() -> OPEN_DIRECTORIES.forEach(TopologyDirectory::deleteQuietly),
					"distlock-topology-directory-reaper"));
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
