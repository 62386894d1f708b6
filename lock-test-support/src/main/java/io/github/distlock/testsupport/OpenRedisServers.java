package io.github.distlock.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens and closes the processes of {@link RedisServer}s and keeps every one not yet
 * closed, including ones still starting, for a JVM shutdown hook that kills them and
 * deletes their directories, so that a crashing test does not leak processes.
 */
final class OpenRedisServers {

	private static final Set<RedisProcess> SERVERS = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(OpenRedisServers::killAll, "distlock-redis-reaper"));
	}

	private OpenRedisServers() {
	}

	/**
	 * Registers {@code process} and starts it on {@code port}, or on a free port if that
	 * is {@code null}; if it does not start, {@linkplain #close closes} it again.
	 */
	static void open(RedisProcess process, Integer port) {
		SERVERS.add(process);
		try {
			process.startOnFreePort(port);
		}
		catch (RuntimeException e) {
			try {
				close(process);
			}
			catch (RuntimeException cleanupFailure) {
				e.addSuppressed(cleanupFailure);
			}
			throw e;
		}
	}

	/**
	 * Kills {@code process} with SIGKILL if it is alive, forgets it and deletes its
	 * directory.
	 */
	static void close(RedisProcess process) {
		try {
			process.killIfAlive();
		}
		finally {
			SERVERS.remove(process);
			process.directory().delete();
		}
	}

	/**
	 * Runs on JVM exit; takes no locks, because a test thread may hold one while it
	 * hangs.
	 */
	private static void killAll() {
		List<RedisProcess> processes = List.copyOf(SERVERS);
		for (RedisProcess process : processes) {
			Process current = process.current();
			if (current != null) {
				current.destroyForcibly();
			}
		}
		for (RedisProcess process : processes) {
			Process current = process.current();
			if (current == null || RedisProcess.awaitExit(current, Duration.ofSeconds(2))) {
				process.directory().delete();
			}
		}
	}

}
