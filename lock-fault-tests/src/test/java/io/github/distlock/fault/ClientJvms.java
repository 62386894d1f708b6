package io.github.distlock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.testsupport.ClientJvm;
import io.github.distlock.testsupport.RedisServer;

/**
 * Starts {@link LockClient} JVMs for one test and kills every one of them on
 * {@link #close()}, whether the test passed or not (and, should the test JVM exit first,
 * {@link ClientJvm}'s shutdown hook does).
 */
final class ClientJvms implements AutoCloseable {

	/** Small heap, quick start: C1 only, no perf data file. */
	private static final String[] JVM_ARGS = { "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
			"-XX:-UsePerfData", "-Djava.net.preferIPv4Stack=true" };

	private final List<ClientJvm> started = new CopyOnWriteArrayList<>();

	private final RedisServer redis;

	private final RedisServer fence;

	private final Duration lease;

	private final Duration commandTimeout;

	ClientJvms(RedisServer redis, RedisServer fence, Duration lease, Duration commandTimeout) {
		this.redis = redis;
		this.fence = fence;
		this.lease = lease;
		this.commandTimeout = commandTimeout;
	}

	/**
	 * Starts a client in {@code mode}; see {@link LockClient} for modes and extra
	 * arguments.
	 */
	ClientJvm start(String name, String mode, String... extraArgs) {
		return start(0, name, mode, extraArgs);
	}

	/**
	 * Starts a client under {@code nice} (unless {@code niceness} is 0), e.g. one that
	 * boots in the background while the test JVM measures something.
	 */
	ClientJvm start(int niceness, String name, String mode, String... extraArgs) {
		List<String> args = new ArrayList<>(List.of("--name=" + name, "--mode=" + mode, "--redis=" + this.redis.port(),
				"--fence=" + this.fence.port(), "--lease=" + this.lease.toMillis(),
				"--timeout=" + this.commandTimeout.toMillis()));
		args.addAll(Arrays.asList(extraArgs));
		ClientJvm.Builder builder = ClientJvm.builder(LockClient.class);
		if (niceness > 0) {
			builder.nice(niceness);
		}
		ClientJvm client = builder.name(name).jvmArgs(JVM_ARGS).args(args.toArray(String[]::new)).start();
		this.started.add(client);
		return client;
	}

	/** Waits until the client printed {@code READY}: it is connected to Redis. */
	static ClientJvm awaitReady(ClientJvm client) {
		client.awaitLine("READY"::equals, Duration.ofSeconds(90));
		return client;
	}

	@Override
	public void close() {
		RuntimeException failure = null;
		for (ClientJvm client : this.started) {
			try {
				client.close();
			}
			catch (RuntimeException ex) {
				failure = (failure != null) ? failure : ex;
			}
		}
		this.started.clear();
		if (failure != null) {
			throw failure;
		}
	}

}
