package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code redis-server} process of one {@link RedisServer}: launching it on a port
 * until it answers PING, stopping it, signalling it and waiting for it to exit. Callers
 * hold the lock of the {@link RedisServer}; only the state getters are meant for any
 * thread.
 */
final class RedisProcess {

	/**
	 * Where a developer's own Redis usually listens; tests must never flush or kill it.
	 */
	static final int DEVELOPER_REDIS_PORT = 6379;

	private static final int FREE_PORT_ATTEMPTS = 5;

	private static final int LOG_LINES_IN_ERRORS = 30;

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration READINESS_PROBE_TIMEOUT = Duration.ofMillis(500);

	private static final Duration GRACEFUL_STOP_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(10);

	private final Path binary;

	/** Passed first, before any flag, as redis-server requires; {@code null} for none. */
	private final Path configFile;

	/** Every command-line flag except {@code --port}, which is chosen at start. */
	private final List<String> flags;

	private final RedisDirectory directory;

	private final RedisCommands commands;

	private volatile int port;

	private volatile Process process;

	private volatile boolean paused;

	RedisProcess(Path binary, Path configFile, List<String> flags, RedisDirectory directory, RedisCommands commands) {
		this.binary = binary;
		this.configFile = configFile;
		this.flags = List.copyOf(flags);
		this.directory = directory;
		this.commands = commands;
	}

	int port() {
		return port;
	}

	/** The current (or, once it is gone, the last) process; {@code null} before any. */
	Process current() {
		return process;
	}

	boolean isRunning() {
		Process current = process;
		return current != null && current.isAlive();
	}

	/** Whether SIGSTOP was sent and not yet followed by SIGCONT. */
	boolean pauseRequested() {
		return paused;
	}

	RedisDirectory directory() {
		return directory;
	}

	// ----------------------------------------------------------------------------------------------
	// startup

	/** Starts on {@code requestedPort}, or on a free port if it is {@code null}. */
	void startOnFreePort(Integer requestedPort) {
		int attempts = requestedPort == null ? FREE_PORT_ATTEMPTS : 1;
		for (int attempt = 1; attempt <= attempts; attempt++) {
			port = requestedPort == null ? freeLoopbackPort() : requestedPort;
			if (launchAndAwaitReady()) {
				return;
			}
		}
		String tried = requestedPort == null ? attempts + " free ports (last " + port + ")" : "port " + port;
		throw new RedisServerException("redis-server could not bind " + tried + ": address already in use; log:\n"
				+ directory.logTail(LOG_LINES_IN_ERRORS));
	}

	void launchOnSamePort() {
		if (!launchAndAwaitReady()) {
			throw new RedisServerException("redis-server could not restart on port " + port
					+ ": another process took the port while it was down; log:\n"
					+ directory.logTail(LOG_LINES_IN_ERRORS));
		}
	}

	/**
	 * Stops the process, deletes the data files unless {@code keepData} and launches it
	 * again on the same port.
	 */
	void restart(boolean keepData) {
		stop();
		if (!keepData) {
			directory.deleteDataFiles();
		}
		launchOnSamePort();
	}

	/**
	 * Starts the process on {@link #port} and waits until it answers PING.
	 * @return {@code false} if it exited because the port was taken (so the caller may
	 * pick another)
	 */
	private boolean launchAndAwaitReady() {
		long logLengthBefore = directory.logLength();
		Process started = startProcess();
		process = started;
		paused = false;
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (true) {
			if (!started.isAlive()) {
				if (directory.logSince(logLengthBefore).contains("Address already in use")) {
					return false;
				}
				throw new RedisServerException("redis-server (" + binary + ") on port " + port + " exited with code "
						+ started.exitValue() + " while starting; log:\n" + directory.logTail(LOG_LINES_IN_ERRORS));
			}
			if (commands.answersPingAsProcess(started.pid(), READINESS_PROBE_TIMEOUT)) {
				return true;
			}
			if (System.nanoTime() - deadline > 0) {
				started.destroyForcibly();
				awaitExit(started, KILL_TIMEOUT);
				throw new RedisServerException(
						"redis-server (" + binary + ") on port " + port + " did not answer PING within "
								+ STARTUP_TIMEOUT.toSeconds() + " s; log:\n" + directory.logTail(LOG_LINES_IN_ERRORS));
			}
			sleep(POLL_INTERVAL);
		}
	}

	private Process startProcess() {
		List<String> commandLine = new ArrayList<>();
		commandLine.add(binary.toString());
		if (configFile != null) {
			commandLine.add(configFile.toString());
		}
		commandLine.add("--port");
		commandLine.add(Integer.toString(port));
		commandLine.addAll(flags);
		ProcessBuilder builder = new ProcessBuilder(commandLine).directory(directory.path().toFile())
			.redirectErrorStream(true)
			// Configuration errors are printed before the log file is opened; keep them
			// next to the log.
			.redirectOutput(ProcessBuilder.Redirect.appendTo(directory.logFile().toFile()));
		long deadline = System.nanoTime() + SIGNAL_TIMEOUT.toNanos();
		while (true) {
			try {
				Process started = builder.start();
				started.getOutputStream().close();
				return started;
			}
			catch (IOException e) {
				// ETXTBSY: a just-extracted binary can still be open for writing in a
				// child forked meanwhile.
				boolean textFileBusy = String.valueOf(e.getMessage()).contains("Text file busy");
				if (!textFileBusy || System.nanoTime() - deadline > 0) {
					throw new RedisServerException("Could not run " + commandLine, e);
				}
				sleep(POLL_INTERVAL);
			}
		}
	}

	static int freeLoopbackPort() {
		while (true) {
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(RedisServer.LOOPBACK))) {
				if (socket.getLocalPort() != DEVELOPER_REDIS_PORT) {
					return socket.getLocalPort();
				}
			}
			catch (IOException e) {
				throw new UncheckedIOException("Could not find a free port on " + RedisServer.LOOPBACK, e);
			}
		}
	}

	// ----------------------------------------------------------------------------------------------
	// process control

	/**
	 * {@code SHUTDOWN NOSAVE}, then SIGTERM, then SIGKILL; see
	 * {@link RedisServer#stop()}.
	 */
	void stop() {
		Process current = process;
		if (current == null || !current.isAlive()) {
			paused = false;
			return;
		}
		if (paused) {
			resume(); // a stopped process cannot act on SHUTDOWN
		}
		if (!commands.requestShutdown()) {
			current.destroy();
		}
		if (!awaitExit(current, GRACEFUL_STOP_TIMEOUT)) {
			current.destroyForcibly();
			requireExit(current, "after SHUTDOWN, SIGTERM and SIGKILL");
		}
	}

	void kill() {
		Process current = process;
		if (current == null) {
			return;
		}
		current.destroyForcibly();
		requireExit(current, "after SIGKILL");
		paused = false;
	}

	/** Kills the process with SIGKILL if it is alive, resuming it first if paused. */
	void killIfAlive() {
		Process current = process;
		if (current != null && current.isAlive()) {
			if (paused) {
				resumeQuietly(); // SIGKILL ends stopped processes too; resuming is
									// cheap insurance
			}
			current.destroyForcibly();
			requireExit(current, "after SIGKILL");
		}
	}

	void pause() {
		if (!isRunning()) {
			throw new IllegalStateException("redis-server on port " + port + " is not running, cannot pause it");
		}
		signal("STOP");
		paused = true;
		awaitStoppedState();
	}

	void resume() {
		if (!isRunning()) {
			paused = false;
			return;
		}
		signal("CONT");
		paused = false;
	}

	private void signal(String signalName) {
		try {
			ProcessSignals.send(signalName, process.pid(), SIGNAL_TIMEOUT);
		}
		catch (IllegalStateException | UncheckedIOException e) {
			throw new RedisServerException("redis-server on port " + port + ": " + e.getMessage(), e);
		}
	}

	/**
	 * Waits until Linux reports the process as stopped, since SIGSTOP is delivered
	 * asynchronously. Where there is no {@code /proc}, returning after {@code kill}
	 * succeeded is the best available.
	 */
	private void awaitStoppedState() {
		try {
			ProcessSignals.awaitStopped(process.pid(), SIGNAL_TIMEOUT);
		}
		catch (IllegalStateException e) {
			throw new RedisServerException("redis-server on port " + port + ": " + e.getMessage(), e);
		}
	}

	private void resumeQuietly() {
		try {
			resume();
		}
		catch (RedisServerException e) {
			// The SIGKILL that follows does the real work.
		}
	}

	private void requireExit(Process dying, String what) {
		if (!awaitExit(dying, KILL_TIMEOUT)) {
			throw new RedisServerException("redis-server pid " + dying.pid() + " on port " + port + " still alive "
					+ KILL_TIMEOUT.toSeconds() + " s " + what);
		}
	}

	static boolean awaitExit(Process dying, Duration timeout) {
		try {
			return dying.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new RedisServerException("Interrupted while waiting for redis-server pid " + dying.pid() + " to exit",
					e);
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new RedisServerException("Interrupted while waiting for redis-server", e);
		}
	}

}
