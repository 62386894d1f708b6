package io.github.distlock.testsupport;

import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

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

	static final String LOOPBACK = "127.0.0.1";

	private final RedisDirectory directory;

	private final boolean persistence;

	private final String password;

	private final RedisCommands commands;

	private final RedisProcess process;

	private boolean closed;

	private RedisServer(RedisServerSettings settings) {
		Path binary = RedisBinary.resolve();
		this.directory = RedisDirectory.create();
		this.persistence = settings.persistence();
		this.password = settings.password();
		this.commands = new RedisCommands(this::port, password);
		this.process = new RedisProcess(binary, settings.configFile(), settings.flags(directory.path()), directory,
				commands);
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
		return process.port();
	}

	/**
	 * {@code redis://127.0.0.1:<port>}; with {@link Builder#requirePassword(String)} the
	 * password is included as {@code redis://:<password>@127.0.0.1:<port>} so that
	 * clients built from the URI can authenticate.
	 */
	public String uri() {
		if (password == null) {
			return "redis://" + LOOPBACK + ":" + port();
		}
		String encoded = URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20");
		return "redis://:" + encoded + "@" + LOOPBACK + ":" + port();
	}

	/**
	 * The process id of the current (or, once it is gone, the last) {@code redis-server}
	 * process.
	 */
	public long pid() {
		return process.current().pid();
	}

	/**
	 * Whether the process is alive; a {@linkplain #pause() paused} process counts as
	 * running.
	 */
	public boolean isRunning() {
		return process.isRunning();
	}

	/** Whether the process is frozen by {@link #pause()} and not yet resumed. */
	public boolean isPaused() {
		return process.pauseRequested() && isRunning();
	}

	/**
	 * Stops the server gracefully with {@code SHUTDOWN NOSAVE}, falling back to SIGTERM
	 * and then SIGKILL, and waits for the process to exit. Does nothing if it is not
	 * running.
	 */
	public synchronized void stop() {
		process.stop();
	}

	/** Kills the process with SIGKILL, as a crash would, and waits for it to exit. */
	public synchronized void kill() {
		process.kill();
	}

	/**
	 * Freezes the process with SIGSTOP: it keeps its port and accepts TCP connections but
	 * answers nothing, like a server stuck in a long GC-style pause or behind a
	 * partition. Returns once the process is actually stopped.
	 * @throws IllegalStateException if it is not running
	 */
	public synchronized void pause() {
		process.pause();
	}

	/**
	 * Lets a {@linkplain #pause() paused} process continue with SIGCONT. Does nothing if
	 * it is not running.
	 */
	public synchronized void resume() {
		process.resume();
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
		process.restart(persistence);
	}

	/**
	 * Like {@link #restart()}, but always starts without data: the data files are deleted
	 * first.
	 */
	public synchronized void restartEmpty() {
		requireOpen();
		process.restart(false);
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
		return command(RedisCommands.COMMAND_TIMEOUT, args);
	}

	/**
	 * Like {@link #command(String...)}, but with {@code timeout} for both connecting and
	 * reading, e.g. to probe a {@linkplain #pause() paused} server quickly. A timeout
	 * surfaces as an {@link UncheckedIOException} caused by a
	 * {@link java.net.SocketTimeoutException}.
	 */
	public String command(Duration timeout, String... args) {
		return commands.command(timeout, args);
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
		return commands.keys(pattern);
	}

	/**
	 * The last {@code lines} lines of the server's log (including anything it printed to
	 * stdout or stderr).
	 */
	public String logTail(int lines) {
		return directory.logTail(lines);
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
		OpenRedisServers.close(process);
	}

	@Override
	public String toString() {
		String state = isRunning() ? (process.pauseRequested() ? ", paused" : ", running") : ", stopped";
		return "RedisServer[" + LOOPBACK + ":" + port() + state + ", dir=" + directory + "]";
	}

	private void requireOpen() {
		if (closed) {
			throw new IllegalStateException(this + " is closed");
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

		private final RedisServerSettings settings = new RedisServerSettings();

		private Builder() {
		}

		/**
		 * Listens on this port instead of a free one. Port 6379 is refused, so that tests
		 * never touch a developer's own Redis.
		 */
		public Builder port(int port) {
			settings.port(port);
			return this;
		}

		/**
		 * With {@code true}, writes an append-only file fsynced on every write
		 * ({@code --appendonly yes
		 * --appendfsync always}), so acknowledged writes survive {@link #kill()} followed
		 * by {@link #restart()}.
		 */
		public Builder persistence(boolean on) {
			settings.persistence(on);
			return this;
		}

		/**
		 * Makes the server a replica of {@code primary} (authenticating with the
		 * primary's password, if any).
		 */
		public Builder replicaOf(RedisServer primary) {
			settings.replicaOf(Objects.requireNonNull(primary, "primary"), primary.password);
			return this;
		}

		/**
		 * Adds a server flag, e.g. {@code arg("maxmemory-policy", "noeviction")} for
		 * {@code --maxmemory-policy
		 * noeviction}. Added last, so it overrides the defaults of this builder.
		 */
		public Builder arg(String name, String... values) {
			settings.arg(name, values);
			return this;
		}

		/**
		 * Adds an ACL user that authenticates with {@code password} and has exactly
		 * {@code rules} (Redis ACL syntax, e.g. {@code "~app:*", "&app:*", "+get"}),
		 * starting from nothing: no keys, channels or commands. The {@code default} user,
		 * which {@link RedisServer} itself uses, is left as it is.
		 */
		public Builder aclUser(String name, String password, String... rules) {
			settings.aclUser(name, password, rules);
			return this;
		}

		/**
		 * Reads {@code file} as the configuration file, which Sentinel mode needs (and
		 * rewrites as it learns the topology). The flags of this builder override what it
		 * sets.
		 */
		public Builder configFile(Path file) {
			settings.configFile(file);
			return this;
		}

		/**
		 * Requires clients to authenticate with {@code password}; {@link RedisServer}
		 * itself does so.
		 */
		public Builder requirePassword(String password) {
			settings.requirePassword(password);
			return this;
		}

		/**
		 * Starts the server and returns once it answers PING.
		 * @throws RedisServerException if it does not, with the tail of its log in the
		 * message
		 */
		public RedisServer start() {
			RedisServer server = new RedisServer(settings);
			OpenRedisServers.open(server.process, settings.port());
			return server;
		}

	}

}
