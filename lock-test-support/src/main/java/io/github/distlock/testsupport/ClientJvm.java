package io.github.distlock.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A separate JVM running a {@code main} class from this JVM's class path, e.g. a lock
 * client whose process a fault test kills or freezes.
 *
 * <pre>{@code
 * try (ClientJvm client = ClientJvm.builder(LockClient.class).args("--mode=churn").name("holder").start()) {
 *     client.awaitLine(line -> line.startsWith("ACQUIRED"), Duration.ofSeconds(30));
 *     client.pause();   // SIGSTOP
 *     client.resume();  // SIGCONT
 *     client.send("close");
 *     client.kill();    // SIGKILL
 * }
 * }</pre>
 *
 * <p>
 * Every line the process prints on standard output is kept, in order, for
 * {@link #lines()} and {@link #awaitLine}; standard error goes to a file whose tail
 * failure messages include. Lines sent with {@link #send(String)} arrive on its standard
 * input; a client should exit when its standard input ends, so that it does not outlive a
 * test JVM that died. A JVM shutdown hook kills every client not {@linkplain #close()
 * closed}.
 *
 * <p>
 * Signals are sent with the {@code kill} command, so this class needs a Unix-like OS.
 */
public final class ClientJvm implements AutoCloseable {

	private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

	private static final int STDERR_LINES_IN_ERRORS = 40;

	private static final Set<ClientJvm> OPEN_CLIENTS = ConcurrentHashMap.newKeySet();

	static {
		Runtime.getRuntime().addShutdownHook(new Thread(ClientJvm::killOpenClients, "distlock-client-jvm-reaper"));
	}

	private final String name;

	private final Process process;

	private final Path stderr;

	private final OutputStream stdin;

	private final OutputLines output;

	private volatile boolean paused;

	private ClientJvm(String name, Process process, Path stderr) {
		this.name = name;
		this.process = process;
		this.stderr = stderr;
		this.stdin = process.getOutputStream();
		this.output = new OutputLines(process.getInputStream(), "client-jvm-" + name + "-stdout");
	}

	/** Configures a JVM that runs {@code mainClass}. */
	public static Builder builder(Class<?> mainClass) {
		return new Builder(mainClass.getName());
	}

	public String name() {
		return name;
	}

	public long pid() {
		return process.pid();
	}

	public boolean isAlive() {
		return process.isAlive();
	}

	/** Sends one line to the process's standard input. */
	public void send(String line) {
		try {
			synchronized (stdin) {
				stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
				stdin.flush();
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(this + " does not read its input any more" + stderrTail(), e);
		}
	}

	/** Every line printed on standard output so far. */
	public List<String> lines() {
		return output.lines();
	}

	/**
	 * Waits for the first line, printed so far or later, that matches.
	 * @throws IllegalStateException if none does within {@code timeout} or the process
	 * exits first
	 */
	public String awaitLine(Predicate<String> matching, Duration timeout) {
		return awaitLine(0, matching, timeout);
	}

	/**
	 * Like {@link #awaitLine(Predicate, Duration)}, considering only lines from index
	 * {@code from} on.
	 */
	public String awaitLine(int from, Predicate<String> matching, Duration timeout) {
		return output.await(from, matching, timeout, this::toString, this::stderrTail);
	}

	/** Freezes the process with SIGSTOP and returns once it is stopped. */
	public void pause() {
		signal("STOP");
		paused = true;
		ProcessSignals.awaitStopped(process.pid(), SIGNAL_TIMEOUT);
	}

	/** Lets a paused process continue with SIGCONT. */
	public void resume() {
		if (process.isAlive()) {
			signal("CONT");
		}
		paused = false;
	}

	/** Kills the process with SIGKILL, as a crash would, and waits until it is gone. */
	public void kill() {
		process.destroyForcibly();
		awaitExit(KILL_TIMEOUT);
		paused = false;
	}

	/**
	 * Waits for the process to exit by itself and for its output to be read.
	 * @return its exit code
	 * @throws IllegalStateException if it is still running after {@code timeout}
	 */
	public int awaitExit(Duration timeout) {
		try {
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException(this + " still running after " + timeout + stderrTail());
			}
			output.awaitEnd(Duration.ofSeconds(10));
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for " + this + " to exit", e);
		}
		return process.exitValue();
	}

	/** The last lines of its standard error, for failure messages. */
	public String stderrTail() {
		try {
			List<String> all = Files.readAllLines(stderr, StandardCharsets.UTF_8);
			if (all.isEmpty()) {
				return "";
			}
			return "\nstderr of " + name + ":\n"
					+ String.join("\n", all.subList(Math.max(0, all.size() - STDERR_LINES_IN_ERRORS), all.size()));
		}
		catch (IOException e) {
			return "";
		}
	}

	/**
	 * Kills the process if it is still running (SIGKILL ends stopped processes too) and
	 * deletes its files.
	 */
	@Override
	public void close() {
		try {
			if (process.isAlive()) {
				process.destroyForcibly();
				process.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		finally {
			OPEN_CLIENTS.remove(this);
			try {
				Files.deleteIfExists(stderr);
			}
			catch (IOException e) {
				// A temporary file; nothing else depends on it.
			}
		}
	}

	@Override
	public String toString() {
		return "ClientJvm[" + name + ", pid " + process.pid()
				+ (process.isAlive() ? (paused ? ", paused" : ", running") : ", exited " + process.exitValue()) + "]";
	}

	private void signal(String signal) {
		if (!process.isAlive()) {
			throw new IllegalStateException(this + " is not running, cannot send SIG" + signal + stderrTail());
		}
		ProcessSignals.send(signal, process.pid(), SIGNAL_TIMEOUT);
	}

	private static void killOpenClients() {
		for (ClientJvm client : List.copyOf(OPEN_CLIENTS)) {
			client.process.destroyForcibly();
		}
	}

	/** Configures a {@link ClientJvm}. */
	public static final class Builder {

		private final String mainClass;

		private final List<String> jvmArgs = new ArrayList<>();

		private final List<String> args = new ArrayList<>();

		private final Map<String, String> environment = new LinkedHashMap<>();

		private String name;

		private int niceness;

		private Builder(String mainClass) {
			this.mainClass = mainClass;
			this.name = mainClass.substring(mainClass.lastIndexOf('.') + 1);
		}

		/** Names the client in messages and thread names. */
		public Builder name(String name) {
			this.name = Objects.requireNonNull(name, "name");
			return this;
		}

		/** Adds JVM options, e.g. {@code -Xmx128m}. */
		public Builder jvmArgs(String... jvmArgs) {
			this.jvmArgs.addAll(Arrays.asList(jvmArgs));
			return this;
		}

		/**
		 * Runs the JVM under {@code nice -n <niceness>} (1..19), so that clients booting
		 * in the background take CPU time from the test JVM only when it has none to use.
		 */
		public Builder nice(int niceness) {
			if (niceness < 1 || niceness > 19) {
				throw new IllegalArgumentException("niceness must be 1..19, was " + niceness);
			}
			this.niceness = niceness;
			return this;
		}

		/**
		 * Sets an environment variable of the process, e.g. {@code LD_PRELOAD} for
		 * libfaketime.
		 */
		public Builder environment(String name, String value) {
			this.environment.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
			return this;
		}

		/** Adds program arguments. */
		public Builder args(String... args) {
			this.args.addAll(Arrays.asList(args));
			return this;
		}

		/**
		 * Starts the JVM with this JVM's {@code java} executable and class path
		 * ({@code java.class.path}, which under Surefire may be a manifest-only jar
		 * naming the real class path; the child reads it the same way).
		 */
		public ClientJvm start() {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			List<String> command = new ArrayList<>();
			if (niceness > 0) {
				command.addAll(List.of("nice", "-n", Integer.toString(niceness)));
			}
			command.add(java);
			command.addAll(jvmArgs);
			command.add("-cp");
			command.add(System.getProperty("java.class.path"));
			command.add(mainClass);
			command.addAll(args);
			Path stderr;
			try {
				stderr = Files.createTempFile("distlock-client-" + name + "-", ".stderr");
			}
			catch (IOException e) {
				throw new UncheckedIOException("Could not create a file for the standard error of " + name, e);
			}
			Process process;
			try {
				ProcessBuilder builder = new ProcessBuilder(command).redirectError(stderr.toFile());
				builder.environment().putAll(environment);
				process = builder.start();
			}
			catch (IOException e) {
				throw new UncheckedIOException("Could not start " + String.join(" ", command), e);
			}
			ClientJvm client = new ClientJvm(name, process, stderr);
			OPEN_CLIENTS.add(client);
			return client;
		}

	}

}
