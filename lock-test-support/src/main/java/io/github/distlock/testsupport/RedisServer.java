package io.github.distlock.testsupport;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real {@code redis-server} process on a free loopback port, with its own temporary
 * directory, for integration tests, fault tests, demos and benchmarks.
 *
 * <pre>{@code
 * try (RedisServer redis = RedisServer.start()) {
 *     redis.command("SET", "k", "v");
 *     redis.pause();   // SIGSTOP: the server stops answering, connections stay open
 *     redis.resume();
 *     redis.kill();    // SIGKILL
 *     redis.restart(); // same port, empty unless persistence was on
 * }
 * }</pre>
 *
 * <p>
 * Every server listens on 127.0.0.1 only, never on port 6379, runs in the foreground and
 * logs to {@code redis.log} in its directory. A JVM shutdown hook kills every server that
 * was not {@linkplain #close() closed}, so a crashing test does not leak processes.
 *
 * <p>
 * Which executable runs is decided by {@link #binary()}. Signals are sent with the
 * {@code kill} command, so this class needs a Unix-like OS.
 */
public final class RedisServer implements AutoCloseable {

	private static final String LOOPBACK = "127.0.0.1";

	/**
	 * Where a developer's own Redis usually listens; tests must never flush or kill it.
	 */
	private static final int DEVELOPER_REDIS_PORT = 6379;

	private static final int FREE_PORT_ATTEMPTS = 5;

	private static final String LOG_FILE_NAME = "redis.log";

	private static final int LOG_LINES_IN_ERRORS = 30;

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration READINESS_PROBE_TIMEOUT = Duration.ofMillis(500);

	private static final Duration GRACEFUL_STOP_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(10);

	/**
	 * Every server not yet closed, including ones still starting, so the shutdown hook
	 * can reach them.
	 */
	private static final Set<RedisServer> OPEN_SERVERS = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(RedisServer::killOpenServers, "distlock-redis-reaper"));
	}

	private final Path binary;

	private final Path directory;

	private final Path logFile;

	private final boolean persistence;

	private final String password;

	/** Passed first, before any flag, as redis-server requires; {@code null} for none. */
	private final Path configFile;

	/** Every command-line flag except {@code --port}, which is chosen at start. */
	private final List<String> flags;

	private volatile int port;

	private volatile Process process;

	private volatile boolean paused;

	private boolean closed;

	private RedisServer(Path binary, Path directory, boolean persistence, String password, Path configFile,
			List<String> flags) {
		this.binary = binary;
		this.directory = directory;
		this.logFile = directory.resolve(LOG_FILE_NAME);
		this.persistence = persistence;
		this.password = password;
		this.configFile = configFile;
		this.flags = List.copyOf(flags);
	}

	/** Starts a server on a free loopback port, without persistence. */
	public static RedisServer start() {
		return builder().start();
	}

	/** Configures a server before starting it. */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * The {@code redis-server} executable that servers run, in this order of preference:
	 * <ol>
	 * <li>the path in the system property {@code distlock.redis.binary}, if set;</li>
	 * <li>{@code redis-server} on the {@code PATH}, unless the system property
	 * {@code distlock.redis.preferEmbedded} is {@code true};</li>
	 * <li>the linux-amd64 binary bundled in the embedded-redis jar, extracted once into
	 * {@code java.io.tmpdir/distlock-redis-<hash>/} and made executable.</li>
	 * </ol>
	 * @throws RedisServerException if none of these is usable
	 */
	public static Path binary() {
		return RedisBinary.resolve();
	}

	/** Always {@code "127.0.0.1"}. */
	public String host() {
		return LOOPBACK;
	}

	public int port() {
		return port;
	}

	/**
	 * {@code redis://127.0.0.1:<port>}; with {@link Builder#requirePassword(String)} the
	 * password is included as {@code redis://:<password>@127.0.0.1:<port>} so that
	 * clients built from the URI can authenticate.
	 */
	public String uri() {
		if (password == null) {
			return "redis://" + LOOPBACK + ":" + port;
		}
		String encoded = URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20");
		return "redis://:" + encoded + "@" + LOOPBACK + ":" + port;
	}

	/**
	 * The process id of the current (or, once it is gone, the last) {@code redis-server}
	 * process.
	 */
	public long pid() {
		return process.pid();
	}

	/**
	 * Whether the process is alive; a {@linkplain #pause() paused} process counts as
	 * running.
	 */
	public boolean isRunning() {
		Process current = process;
		return current != null && current.isAlive();
	}

	/** Whether the process is frozen by {@link #pause()} and not yet resumed. */
	public boolean isPaused() {
		return paused && isRunning();
	}

	/**
	 * Stops the server gracefully with {@code SHUTDOWN NOSAVE}, falling back to SIGTERM
	 * and then SIGKILL, and waits for the process to exit. Does nothing if it is not
	 * running.
	 */
	public synchronized void stop() {
		Process current = process;
		if (current == null || !current.isAlive()) {
			paused = false;
			return;
		}
		if (paused) {
			resume(); // a stopped process cannot act on SHUTDOWN
		}
		if (!requestShutdown()) {
			current.destroy();
		}
		if (!awaitExit(current, GRACEFUL_STOP_TIMEOUT)) {
			current.destroyForcibly();
			requireExit(current, "after SHUTDOWN, SIGTERM and SIGKILL");
		}
	}

	/** Kills the process with SIGKILL, as a crash would, and waits for it to exit. */
	public synchronized void kill() {
		Process current = process;
		if (current == null) {
			return;
		}
		current.destroyForcibly();
		requireExit(current, "after SIGKILL");
		paused = false;
	}

	/**
	 * Freezes the process with SIGSTOP: it keeps its port and accepts TCP connections but
	 * answers nothing, like a server stuck in a long GC-style pause or behind a
	 * partition. Returns once the process is actually stopped.
	 * @throws IllegalStateException if it is not running
	 */
	public synchronized void pause() {
		if (!isRunning()) {
			throw new IllegalStateException("redis-server on port " + port + " is not running, cannot pause it");
		}
		signal("STOP");
		paused = true;
		awaitStoppedState();
	}

	/**
	 * Lets a {@linkplain #pause() paused} process continue with SIGCONT. Does nothing if
	 * it is not running.
	 */
	public synchronized void resume() {
		if (!isRunning()) {
			paused = false;
			return;
		}
		signal("CONT");
		paused = false;
	}

	/**
	 * Stops the server if it is running, waits for the process to be gone and starts it
	 * again on the same port with the same directory and flags, returning once it answers
	 * PING. Data survives only if persistence was on: otherwise the data files are
	 * deleted first, because e.g. a replica's full sync leaves a {@code dump.rdb} behind
	 * that would be loaded again.
	 */
	public synchronized void restart() {
		requireOpen();
		stop();
		if (!persistence) {
			deleteDataFiles();
		}
		launchOnSamePort();
	}

	/**
	 * Like {@link #restart()}, but always starts without data: the data files are deleted
	 * first.
	 */
	public synchronized void restartEmpty() {
		requireOpen();
		stop();
		deleteDataFiles();
		launchOnSamePort();
	}

	/**
	 * Sends one command over a fresh connection (connect and read timeout 5 s) and
	 * renders the reply as text: simple and bulk strings as they are, integers in
	 * decimal, nil as {@code null}, arrays as their rendered elements joined with
	 * {@code '\n'} (a nil element as {@code "null"}).
	 * @throws RedisServerException if Redis answers with an error; the message is Redis's
	 * text
	 * @throws UncheckedIOException if the server cannot be reached or does not answer in
	 * time
	 */
	public String command(String... args) {
		return command(COMMAND_TIMEOUT, args);
	}

	/**
	 * Like {@link #command(String...)}, but with {@code timeout} for both connecting and
	 * reading, e.g. to probe a {@linkplain #pause() paused} server quickly. A timeout
	 * surfaces as an {@link UncheckedIOException} caused by a
	 * {@link java.net.SocketTimeoutException}.
	 */
	public String command(Duration timeout, String... args) {
		return render(call(timeout, args));
	}

	/** Deletes every key in every database. */
	public void flushAll() {
		command("FLUSHALL");
	}

	/**
	 * The keys matching a glob-style pattern, sorted; uses SCAN so it is safe on large
	 * data sets.
	 */
	public List<String> keys(String pattern) {
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
	 * The last {@code lines} lines of the server's log (including anything it printed to
	 * stdout or stderr).
	 */
	public String logTail(int lines) {
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

	/**
	 * Kills the process with SIGKILL if it is still running (resuming a paused one first)
	 * and deletes its directory. Calling it again does nothing.
	 */
	@Override
	public synchronized void close() {
		if (closed) {
			return;
		}
		closed = true;
		try {
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
		finally {
			OPEN_SERVERS.remove(this);
			deleteRecursively(directory);
		}
	}

	@Override
	public String toString() {
		return "RedisServer[" + LOOPBACK + ":" + port
				+ (isRunning() ? (paused ? ", paused" : ", running") : ", stopped") + ", dir=" + directory + "]";
	}

	// ----------------------------------------------------------------------------------------------
	// startup

	private void startOnFreePort(Integer requestedPort) {
		int attempts = requestedPort == null ? FREE_PORT_ATTEMPTS : 1;
		for (int attempt = 1; attempt <= attempts; attempt++) {
			port = requestedPort == null ? freeLoopbackPort() : requestedPort;
			if (launchAndAwaitReady()) {
				return;
			}
		}
		String tried = requestedPort == null ? attempts + " free ports (last " + port + ")" : "port " + port;
		throw new RedisServerException("redis-server could not bind " + tried + ": address already in use; log:\n"
				+ logTail(LOG_LINES_IN_ERRORS));
	}

	private void launchOnSamePort() {
		if (!launchAndAwaitReady()) {
			throw new RedisServerException("redis-server could not restart on port " + port
					+ ": another process took the port while it was down; log:\n" + logTail(LOG_LINES_IN_ERRORS));
		}
	}

	/**
	 * Starts the process on {@link #port} and waits until it answers PING.
	 * @return {@code false} if it exited because the port was taken (so the caller may
	 * pick another)
	 */
	private boolean launchAndAwaitReady() {
		long logLengthBefore = logLength();
		Process started = startProcess();
		process = started;
		paused = false;
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (true) {
			if (!started.isAlive()) {
				if (logSince(logLengthBefore).contains("Address already in use")) {
					return false;
				}
				throw new RedisServerException("redis-server (" + binary + ") on port " + port + " exited with code "
						+ started.exitValue() + " while starting; log:\n" + logTail(LOG_LINES_IN_ERRORS));
			}
			if (answersPingAsProcess(started.pid())) {
				return true;
			}
			if (System.nanoTime() - deadline > 0) {
				started.destroyForcibly();
				awaitExit(started, KILL_TIMEOUT);
				throw new RedisServerException(
						"redis-server (" + binary + ") on port " + port + " did not answer PING within "
								+ STARTUP_TIMEOUT.toSeconds() + " s; log:\n" + logTail(LOG_LINES_IN_ERRORS));
			}
			sleep(POLL_INTERVAL);
		}
	}

	/**
	 * Whether the server on our port answers PING and is our process: after losing a port
	 * race, PING could otherwise be answered by whichever server won it.
	 */
	private boolean answersPingAsProcess(long pid) {
		try (RespConnection connection = connect(READINESS_PROBE_TIMEOUT)) {
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

	private Process startProcess() {
		List<String> commandLine = new ArrayList<>();
		commandLine.add(binary.toString());
		if (configFile != null) {
			commandLine.add(configFile.toString());
		}
		commandLine.add("--port");
		commandLine.add(Integer.toString(port));
		commandLine.addAll(flags);
		ProcessBuilder builder = new ProcessBuilder(commandLine).directory(directory.toFile())
			.redirectErrorStream(true)
			// Configuration errors are printed before the log file is opened; keep them
			// next to the log.
			.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
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
			try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
				if (socket.getLocalPort() != DEVELOPER_REDIS_PORT) {
					return socket.getLocalPort();
				}
			}
			catch (IOException e) {
				throw new UncheckedIOException("Could not find a free port on " + LOOPBACK, e);
			}
		}
	}

	// ----------------------------------------------------------------------------------------------
	// commands

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
		RespConnection connection = RespConnection.open(LOOPBACK, port, timeout);
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
		return new UncheckedIOException(commandName + " to redis-server at " + LOOPBACK + ":" + port + " failed: " + e,
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

	// ----------------------------------------------------------------------------------------------
	// process control

	/**
	 * @return whether Redis accepted SHUTDOWN, which it shows by hanging up without a
	 * reply
	 */
	private boolean requestShutdown() {
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

	private void signal(String signalName) {
		try {
			ProcessSignals.send(signalName, pid(), SIGNAL_TIMEOUT);
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
			ProcessSignals.awaitStopped(pid(), SIGNAL_TIMEOUT);
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

	private static boolean awaitExit(Process dying, Duration timeout) {
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

	private void requireOpen() {
		if (closed) {
			throw new IllegalStateException(this + " is closed");
		}
	}

	/**
	 * Runs on JVM exit; takes no locks, because a test thread may hold one while it
	 * hangs.
	 */
	private static void killOpenServers() {
		List<RedisServer> servers = List.copyOf(OPEN_SERVERS);
		for (RedisServer server : servers) {
			Process current = server.process;
			if (current != null) {
				current.destroyForcibly();
			}
		}
		for (RedisServer server : servers) {
			Process current = server.process;
			if (current == null || awaitExit(current, Duration.ofSeconds(2))) {
				deleteRecursively(server.directory);
			}
		}
	}

	// ----------------------------------------------------------------------------------------------
	// files

	/**
	 * Everything in the directory except the log, which should keep the history across
	 * restarts.
	 */
	private void deleteDataFiles() {
		try (Stream<Path> entries = Files.list(directory)) {
			entries.filter(entry -> !entry.equals(logFile)).forEach(RedisServer::deleteRecursively);
		}
		catch (IOException e) {
			throw new UncheckedIOException("Could not delete the data files in " + directory, e);
		}
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

	private long logLength() {
		try {
			return Files.exists(logFile) ? Files.size(logFile) : 0;
		}
		catch (IOException e) {
			return 0;
		}
	}

	private String logSince(long offset) {
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
	 * Configures a {@link RedisServer}. Flags always set:
	 * {@code --bind 127.0.0.1 --protected-mode no
	 * --daemonize no --logfile
	<dir>
	/redis.log --dir
	<dir>
	 --save ""} and {@code --appendonly no} unless {@linkplain #persistence(boolean)
	 * persistence} is on.
	 */
	public static final class Builder {

		private Integer port;

		private boolean persistence;

		private RedisServer primary;

		private String password;

		private Path configFile;

		private final List<String> extraFlags = new ArrayList<>();

		private Builder() {
		}

		/**
		 * Listens on this port instead of a free one. Port 6379 is refused, so that tests
		 * never touch a developer's own Redis.
		 */
		public Builder port(int port) {
			if (port < 1 || port > 65535) {
				throw new IllegalArgumentException("port must be 1..65535, was " + port);
			}
			if (port == DEVELOPER_REDIS_PORT) {
				throw new IllegalArgumentException("port 6379 is reserved for a developer's own Redis; pick another");
			}
			this.port = port;
			return this;
		}

		/**
		 * With {@code true}, writes an append-only file fsynced on every write
		 * ({@code --appendonly yes
		 * --appendfsync always}), so acknowledged writes survive {@link #kill()} followed
		 * by {@link #restart()}.
		 */
		public Builder persistence(boolean on) {
			this.persistence = on;
			return this;
		}

		/**
		 * Makes the server a replica of {@code primary} (authenticating with the
		 * primary's password, if any).
		 */
		public Builder replicaOf(RedisServer primary) {
			this.primary = Objects.requireNonNull(primary, "primary");
			return this;
		}

		/**
		 * Adds a server flag, e.g. {@code arg("maxmemory-policy", "noeviction")} for
		 * {@code --maxmemory-policy
		 * noeviction}. Added last, so it overrides the defaults of this builder.
		 */
		public Builder arg(String name, String... values) {
			Objects.requireNonNull(name, "name");
			String bareName = name.replaceFirst("^--", "");
			if (bareName.isBlank()) {
				throw new IllegalArgumentException("flag name must not be blank");
			}
			extraFlags.add("--" + bareName);
			for (String value : values) {
				extraFlags.add(Objects.requireNonNull(value, "flag value"));
			}
			return this;
		}

		/**
		 * Adds an ACL user that authenticates with {@code password} and has exactly
		 * {@code rules} (Redis ACL syntax, e.g. {@code "~app:*", "&app:*", "+get"}),
		 * starting from nothing: no keys, channels or commands. The {@code default} user,
		 * which {@link RedisServer} itself uses, is left as it is.
		 */
		public Builder aclUser(String name, String password, String... rules) {
			if (name == null || name.isBlank() || name.equals("default")) {
				throw new IllegalArgumentException("ACL user name must be non-blank and not 'default', was " + name);
			}
			if (password == null || password.isEmpty()) {
				throw new IllegalArgumentException("password of ACL user '" + name + "' must not be empty");
			}
			// "resetchannels" too: before Redis 7, "reset" grants all channels.
			List<String> values = new ArrayList<>(List.of(name, "reset", "resetchannels", "on", ">" + password));
			values.addAll(List.of(rules));
			return arg("user", values.toArray(String[]::new));
		}

		/**
		 * Reads {@code file} as the configuration file, which Sentinel mode needs (and
		 * rewrites as it learns the topology). The flags of this builder override what it
		 * sets.
		 */
		public Builder configFile(Path file) {
			this.configFile = Objects.requireNonNull(file, "file").toAbsolutePath();
			return this;
		}

		/**
		 * Requires clients to authenticate with {@code password}; {@link RedisServer}
		 * itself does so.
		 */
		public Builder requirePassword(String password) {
			if (password == null || password.isEmpty()) {
				throw new IllegalArgumentException("password must not be empty");
			}
			this.password = password;
			return this;
		}

		/**
		 * Starts the server and returns once it answers PING.
		 * @throws RedisServerException if it does not, with the tail of its log in the
		 * message
		 */
		public RedisServer start() {
			Path binary = RedisBinary.resolve();
			Path directory;
			try {
				directory = Files.createTempDirectory("distlock-redis-server-");
			}
			catch (IOException e) {
				throw new UncheckedIOException("Could not create a directory for redis-server", e);
			}
			RedisServer server = new RedisServer(binary, directory, persistence, password, configFile,
					flags(directory));
			OPEN_SERVERS.add(server);
			try {
				server.startOnFreePort(port);
				return server;
			}
			catch (RuntimeException e) {
				try {
					server.close();
				}
				catch (RuntimeException cleanupFailure) {
					e.addSuppressed(cleanupFailure);
				}
				throw e;
			}
		}

		private List<String> flags(Path directory) {
			List<String> flags = new ArrayList<>(
					List.of("--bind", LOOPBACK, "--protected-mode", "no", "--daemonize", "no", "--logfile",
							directory.resolve(LOG_FILE_NAME).toString(), "--dir", directory.toString(), "--save", "",
							// Redis 7 otherwise waits 5 s for more replicas before a full
							// sync; tests want it now.
							"--repl-diskless-sync-delay", "0"));
			if (persistence) {
				flags.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
			}
			else {
				flags.addAll(List.of("--appendonly", "no"));
			}
			if (primary != null) {
				flags.addAll(List.of("--replicaof", primary.host(), Integer.toString(primary.port())));
				if (primary.password != null) {
					flags.addAll(List.of("--masterauth", primary.password));
				}
			}
			if (password != null) {
				flags.addAll(List.of("--requirepass", password));
			}
			flags.addAll(extraFlags);
			return flags;
		}

	}

}
