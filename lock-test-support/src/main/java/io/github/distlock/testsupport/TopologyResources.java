package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * What a topology must clean up: its servers, and a temporary directory for the files it
 * keeps outside their own directories (the cluster's {@code nodes.conf} files, which must
 * survive a {@link RedisServer#restart()} so a node comes back with its identity; the
 * configuration files Sentinel rewrites). {@link #close()} kills the servers, the last
 * added first, then deletes the directory. If a test never gets there, the servers' own
 * shutdown hook kills them at JVM exit and this class's deletes the directory.
 */
final class TopologyResources implements AutoCloseable {

	private static final Set<Path> OPEN_DIRECTORIES = ConcurrentHashMap.newKeySet();

	private static final int REAPER_ATTEMPTS = 10;

	private static final long REAPER_PAUSE_MILLIS = 100;

	static {
		Runtime.getRuntime()
			.addShutdownHook(
					new Thread(TopologyResources::deleteOpenDirectories, "distlock-topology-directory-reaper"));
	}

	private final Path directory;

	private final List<RedisServer> servers = new ArrayList<>();

	private TopologyResources(Path directory) {
		this.directory = directory;
	}

	static TopologyResources create(String prefix) {
		try {
			TopologyResources resources = new TopologyResources(Files.createTempDirectory(prefix));
			OPEN_DIRECTORIES.add(resources.directory);
			return resources;
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not create a temporary directory " + prefix + "*", e);
		}
	}

	Path directory() {
		return directory;
	}

	Path resolve(String fileName) {
		return directory.resolve(fileName);
	}

	/** Closes {@code server} with the topology; returns it. */
	synchronized RedisServer add(RedisServer server) {
		servers.add(server);
		return server;
	}

	/**
	 * Closes every server, the last added first (Sentinels before the nodes they watch,
	 * so none starts a failover), then deletes the directory, also if closing a server
	 * failed. Calling it again does nothing more.
	 */
	@Override
	public synchronized void close() {
		RuntimeException failure = null;
		for (int i = servers.size() - 1; i >= 0; i--) {
			try {
				servers.get(i).close();
			}
			catch (RuntimeException e) {
				if (failure == null) {
					failure = e;
				}
				else {
					failure.addSuppressed(e);
				}
			}
		}
		OPEN_DIRECTORIES.remove(directory);
		deleteQuietly(directory);
		if (failure != null) {
			throw failure;
		}
	}

	@Override
	public String toString() {
		return directory.toString();
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
