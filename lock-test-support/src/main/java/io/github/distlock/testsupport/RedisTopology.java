package io.github.distlock.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * What {@link RedisCluster} and {@link RedisSentinelGroup} share: data nodes started as
 * {@link RedisServer}s on free loopback ports and cleaned up with the topology's own
 * files ({@link TopologyResources}), bounded waits that fail with a description of the
 * topology, and the reset a JUnit extension does before each test.
 */
abstract class RedisTopology implements AutoCloseable {

	/** Bounds every wait for the topology to change or settle. */
	static final Duration TOPOLOGY_TIMEOUT = Duration.ofSeconds(30);

	/** Bounds every probe, so a node that hangs costs one poll, not the whole wait. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

	private final TopologyResources resources;

	/** How a data node is named in messages, e.g. {@code a node of this cluster}. */
	private final String membership;

	/** The data nodes as started; their roles change with failovers. */
	private final List<RedisServer> servers = new CopyOnWriteArrayList<>();

	RedisTopology(TopologyResources resources, String membership) {
		this.resources = resources;
		this.membership = membership;
	}

	/** The data nodes, whatever their role now and whether running or not. */
	public List<RedisServer> servers() {
		return List.copyOf(servers);
	}

	/**
	 * Returns once the topology is back to its healthy shape.
	 * @throws RedisServerException if that does not happen within 30 s, describing the
	 * topology
	 */
	public abstract void awaitHealthy();

	/** Starts a killed data node again and returns once it has rejoined as a replica. */
	public abstract void restartAsReplica(RedisServer killed);

	/** {@code FLUSHALL} where the data is written. */
	public abstract void flushAll();

	/** What each node is and sees, for failure messages. */
	public abstract String describe();

	/**
	 * Kills every process of the topology and deletes every file. Calling it again does
	 * nothing.
	 */
	@Override
	public void close() {
		resources.close();
	}

	// ----------------------------------------------------------------------------------------------
	// for the subclasses, their helpers and the extensions

	/** Where the topology keeps its own files; for tests of the clean-up. */
	Path directory() {
		return resources.directory();
	}

	TopologyResources resources() {
		return resources;
	}

	/** Adds a started data node, closed with the topology. */
	RedisServer addNode(RedisServer node) {
		servers.add(resources.add(node));
		return node;
	}

	/**
	 * Runs {@code startup}; if it fails, closes everything started so far and rethrows.
	 */
	final void startOrClose(Runnable startup) {
		try {
			startup.run();
		}
		catch (RuntimeException e) {
			try {
				close();
			}
			catch (RuntimeException cleanupFailure) {
				e.addSuppressed(cleanupFailure);
			}
			throw e;
		}
	}

	/**
	 * What a test needs before it runs: paused nodes resumed, the topology healthy (a
	 * master killed without waiting is replaced first), killed nodes restarted as
	 * replicas, no data.
	 */
	final void resetForNextTest() {
		for (RedisServer node : servers) {
			if (node.isPaused()) {
				node.resume();
			}
		}
		awaitHealthy();
		for (RedisServer node : servers) {
			if (!node.isRunning()) {
				restartAsReplica(node);
			}
		}
		flushAll();
	}

	/** Waits up to 30 s for {@code condition}, failing with {@link #describe()}. */
	final void await(String what, BooleanSupplier condition) {
		BoundedWait.until(what, TOPOLOGY_TIMEOUT, condition, this::describe);
	}

	RedisServer serverOnPort(int port) {
		return servers.stream()
			.filter(server -> server.port() == port)
			.findFirst()
			.orElseThrow(() -> new RedisServerException("no data node of " + this + " listens on port " + port));
	}

	/** Running and not paused: the data nodes that can answer. */
	List<RedisServer> liveNodes() {
		return servers.stream().filter(server -> server.isRunning() && !server.isPaused()).toList();
	}

	RedisServer requireMember(RedisServer node) {
		if (!servers.contains(Objects.requireNonNull(node, "node"))) {
			throw new IllegalArgumentException(node + " is not " + membership + ": " + ports(servers));
		}
		return node;
	}

	/** {@code killed}, a data node that is not running. */
	RedisServer requireKilled(RedisServer killed) {
		if (requireMember(killed).isRunning()) {
			throw new IllegalStateException("node " + killed.port() + " is running; only a killed node can rejoin");
		}
		return killed;
	}

	/** {@code master}, or {@code slave <master port>}, from {@code ROLE}. */
	static String role(RedisServer server) {
		List<String> role = server.command(PROBE_TIMEOUT, "ROLE").lines().toList();
		return role.get(0).equals("slave") ? "slave " + role.get(2) : role.get(0);
	}

	static String ports(List<RedisServer> servers) {
		return servers.stream().map(server -> Integer.toString(server.port())).toList().toString();
	}

	static Duration elapsed(long sinceNanos) {
		return Duration.ofNanos(System.nanoTime() - sinceNanos);
	}

}
