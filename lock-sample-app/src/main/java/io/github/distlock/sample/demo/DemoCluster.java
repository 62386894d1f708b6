package io.github.distlock.sample.demo;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.github.distlock.sample.SampleApplication;
import io.github.distlock.testsupport.RedisServer;
import org.h2.tools.RunScript;
import org.h2.tools.Server;
import org.jspecify.annotations.Nullable;

/**
 * Everything the demo runs: an H2 TCP server holding the shared in-memory database, a
 * Redis (the configured one if it answers, otherwise a {@code redis-server} started here)
 * and several instances of the application, each its own JVM. {@link #close()} stops all
 * of it that this class started, in reverse order; it is idempotent and safe to call from
 * a shutdown hook.
 */
public final class DemoCluster implements AutoCloseable {

	private static final String DATABASE = "distlock-demo";

	private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

	private final PrintStream out;

	private @Nullable Server h2;

	private @Nullable Connection keepDatabaseOpen;

	private @Nullable RedisServer startedRedis;

	private @Nullable RedisAddress redis;

	private final List<InstanceProcess> instances = new CopyOnWriteArrayList<>();

	/** Stops everything on Ctrl-C or a kill, also while still starting. */
	private final Thread stopper = new Thread(this::close, "distlock-demo-stopper");

	private boolean closed;

	private DemoCluster(PrintStream out) {
		this.out = out;
	}

	/**
	 * Starts the database, Redis if needed, and the instances, and waits until every
	 * instance is healthy.
	 * @throws IllegalStateException if something cannot be started; whatever was started
	 * is stopped again
	 */
	public static DemoCluster start(Settings settings, PrintStream out) throws InterruptedException {
		DemoCluster cluster = new DemoCluster(out);
		Runtime.getRuntime().addShutdownHook(cluster.stopper);
		try {
			cluster.startAll(settings);
			return cluster;
		}
		catch (RuntimeException | InterruptedException ex) {
			cluster.close();
			throw ex;
		}
	}

	private void startAll(Settings settings) throws InterruptedException {
		try {
			Files.createDirectories(settings.workDirectory());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not create " + settings.workDirectory(), ex);
		}
		int h2Port = startDatabase();
		this.redis = redis(settings.redis(), settings.startRedis());
		List<Integer> ports = new ArrayList<>();
		for (int i = 0; i < settings.instances(); i++) {
			ports.add(freePort());
		}
		List<String> command = settings.command();
		for (int i = 0; i < ports.size(); i++) {
			int port = ports.get(i);
			String name = "instance-" + (i + 1);
			String peers = ports.stream()
				.filter((other) -> other != port)
				.map((other) -> "http://127.0.0.1:" + other)
				.collect(Collectors.joining(","));
			List<String> arguments = new ArrayList<>(List.of(
					"--spring.datasource.url=jdbc:h2:tcp://127.0.0.1:" + h2Port + "/mem:" + DATABASE
							+ ";LOCK_TIMEOUT=10000",
					"--spring.sql.init.mode=never", "--spring.data.redis.host=" + this.redis.host(),
					"--spring.data.redis.port=" + this.redis.port(), "--sample.peers=" + peers,
					"--sample.parent-pid=" + ProcessHandle.current().pid()));
			arguments.addAll(settings.instanceArguments());
			Path log = settings.workDirectory().resolve(name + ".log");
			this.instances.add(InstanceProcess.start(name, port, command, arguments, log));
			this.out.println("Started " + name + " on " + this.instances.get(i).url() + " (log: " + log + ")");
		}
		this.out.println("Waiting for the instances to be healthy...");
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		for (InstanceProcess instance : this.instances) {
			instance.awaitReady(http, READY_TIMEOUT);
			this.out.println("  " + instance.name() + " is up");
		}
	}

	/**
	 * Serves a fresh in-memory database over TCP, with the schema the instances expect.
	 */
	private int startDatabase() {
		try {
			this.keepDatabaseOpen = DriverManager.getConnection("jdbc:h2:mem:" + DATABASE + ";DB_CLOSE_DELAY=-1", "sa",
					"");
			try (Reader schema = new InputStreamReader(
					Objects.requireNonNull(SampleApplication.class.getResourceAsStream("/schema-h2.sql"),
							"schema-h2.sql on the classpath"),
					StandardCharsets.UTF_8)) {
				RunScript.execute(this.keepDatabaseOpen, schema);
			}
			int port = freePort();
			this.h2 = Server.createTcpServer("-tcpPort", Integer.toString(port)).start();
			this.out.println("Started H2 with the shared database on 127.0.0.1:" + port);
			return port;
		}
		catch (SQLException | IOException ex) {
			throw new IllegalStateException("Could not start the H2 database: " + ex.getMessage(), ex);
		}
	}

	private RedisAddress redis(@Nullable RedisAddress configured, boolean startRedis) {
		if (startRedis) {
			this.startedRedis = RedisServer.start();
			this.out.println("Started " + RedisServer.binary() + " for the demo on " + this.startedRedis.host() + ":"
					+ this.startedRedis.port());
			return new RedisAddress(this.startedRedis.host(), this.startedRedis.port());
		}
		RedisAddress candidate = (configured != null) ? configured : RedisAddress.DEFAULT;
		if (candidate.answersPing()) {
			this.out.println("Using the Redis answering at " + candidate);
			return candidate;
		}
		if (configured != null) {
			throw new IllegalStateException("No Redis answers PING at " + configured + " (--redis)");
		}
		this.startedRedis = RedisServer.start();
		this.out.println("No Redis at " + candidate + ": started " + RedisServer.binary() + " on "
				+ this.startedRedis.host() + ":" + this.startedRedis.port());
		return new RedisAddress(this.startedRedis.host(), this.startedRedis.port());
	}

	/** Base URLs of the instances, in start order. */
	public List<URI> urls() {
		return this.instances.stream().map(InstanceProcess::url).toList();
	}

	/** Where the instances found Redis. */
	public RedisAddress redisAddress() {
		return Objects.requireNonNull(this.redis, "not started");
	}

	/** Whether every instance process is still running. */
	public boolean allAlive() {
		return this.instances.stream().allMatch(InstanceProcess::isAlive);
	}

	/** The end of every instance's log, for diagnosing a failed run. */
	public String logTails(int lines) {
		return this.instances.stream()
			.map((instance) -> "--- " + instance.logFile() + "\n" + instance.logTail(lines))
			.collect(Collectors.joining("\n"));
	}

	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		if (Thread.currentThread() != this.stopper) {
			try {
				Runtime.getRuntime().removeShutdownHook(this.stopper);
			}
			catch (IllegalStateException ex) {
				// Shutting down already: the hook runs and finds the cluster closed.
			}
		}
		// Stop the instances together: each takes a moment to shut down gracefully.
		this.instances.parallelStream().forEach(InstanceProcess::stop);
		if (this.startedRedis != null) {
			this.startedRedis.close();
		}
		if (this.h2 != null) {
			this.h2.stop();
		}
		if (this.keepDatabaseOpen != null) {
			try {
				this.keepDatabaseOpen.close();
			}
			catch (SQLException ex) {
				// The in-memory database goes away with this JVM anyway.
			}
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not find a free port", ex);
		}
	}

	/**
	 * What to start.
	 *
	 * @param instances how many application instances
	 * @param redis the Redis to use; {@code null} to use the default address if a Redis
	 * answers there and to start one otherwise
	 * @param startRedis start a {@code redis-server} on a free port, whatever answers
	 * elsewhere
	 * @param command how to start one instance (java, JVM options, jar or class path and
	 * main class)
	 * @param instanceArguments more application arguments for every instance
	 * @param workDirectory where the instances' logs go
	 */
	public record Settings(int instances, @Nullable RedisAddress redis, boolean startRedis, List<String> command,
			List<String> instanceArguments, Path workDirectory) {

		/** Upper bound of instances, for a two-core laptop's sake. */
		public static final int MAX_INSTANCES = 8;

		public Settings {
			if (instances < 1 || instances > MAX_INSTANCES) {
				throw new IllegalArgumentException(
						"instances must be between 1 and " + MAX_INSTANCES + ", was " + instances);
			}
			command = List.copyOf(command);
			instanceArguments = List.copyOf(instanceArguments);
		}

		/**
		 * The command that runs this application in a new JVM: {@code java -jar} when it
		 * was started from a jar, otherwise its class path and main class.
		 * @param jar the application jar, or {@code null} to use this JVM's class path
		 */
		public static List<String> javaCommand(@Nullable Path jar) {
			List<String> command = new ArrayList<>();
			command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
			// Small, quick-starting JVMs: the race is bounded by the lock, not by the
			// JIT.
			command.addAll(List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
			String classPath = System.getProperty("java.class.path", "");
			if (jar == null && classPath.endsWith(".jar") && !classPath.contains(java.io.File.pathSeparator)) {
				jar = Path.of(classPath);
			}
			if (jar != null) {
				if (!Files.isRegularFile(jar)) {
					throw new IllegalArgumentException("Application jar " + jar + " does not exist; build it with"
							+ " ./mvnw -pl lock-sample-app -am package -DskipTests");
				}
				command.addAll(List.of("-jar", jar.toString()));
			}
			else {
				command.addAll(List.of("-cp", classPath, SampleApplication.class.getName()));
			}
			return command;
		}

	}

}
