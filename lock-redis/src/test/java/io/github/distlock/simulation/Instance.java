package io.github.distlock.simulation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.QuorumLockStore;
import io.github.distlock.store.LockStore;

/**
 * One application instance of the world: a process, its connections to the nodes, and a
 * {@link LockEngine} on them (on one node, or on a quorum of them), whose lock-lost
 * events are recorded.
 */
final class Instance {

	final SimProcess process;

	final LockEngine engine;

	private final List<Connection> connections;

	private volatile boolean shutDown;

	private Instance(SimProcess process, LockEngine engine, List<Connection> connections) {
		this.process = process;
		this.engine = engine;
		this.connections = connections;
	}

	/** Builds an instance; on a thread of {@code process}, whose pools it makes. */
	static Instance start(SimProcess process, SimSetup setup, Simulation world, Network network, List<Node> nodes,
			Owners owners, SimRuntime runtime, Observations observations) {
		List<NodeClient> clients = new ArrayList<>();
		List<Connection> connections = new ArrayList<>();
		for (Node node : nodes) {
			Connection connection = new Connection(world, network, process, node, setup.commandTimeout().toNanos());
			connections.add(connection);
			clients.add(new NodeClient(world, connection));
		}
		LockStore store;
		if (clients.size() == 1) {
			store = clients.get(0);
		}
		else {
			List<QuorumLockStore.Member> members = clients.stream()
				.map((client) -> new QuorumLockStore.Member(client.node().name, client, client))
				.toList();
			store = new QuorumLockStore(members, setup.nodeTimeout(), runtime);
		}
		LockEngine engine = new LockEngine(new RecordingStore(store, world, owners, observations), setup.leaseTime(),
				runtime);
		Instance instance = new Instance(process, engine, connections);
		engine.setLockLostListener((lost) -> observations.lossReported(process, lost.lockId(), lost.fencingToken(),
				"LockLostListener: " + lost.reason()));
		world.trace().log(process.name(), "started, lease " + setup.leaseTime().toMillis() + " ms");
		return instance;
	}

	/**
	 * Closes the instance as an application context does (a graceful shutdown): the lock
	 * service first, then the connections (so whatever the service left to do after it
	 * returned is never sent), then the process exits.
	 */
	void shutDown(Simulation world) {
		this.shutDown = true;
		world.trace().log(this.process.name(), "shutting down");
		this.engine.destroy();
		this.connections.forEach(Connection::close);
		world.trace().log(this.process.name(), "shut down; the process exits");
		this.process.crash();
		world.crashed(this.process);
	}

	boolean isShutDown() {
		return this.shutDown;
	}

	boolean isAlive() {
		return !this.shutDown && !this.process.isCrashed();
	}

	/**
	 * The settings of a world, drawn from its seed.
	 *
	 * @param nodes how many nodes (1, or 3 for a quorum)
	 * @param leaseTime the engines' lease of auto-renewed locks
	 * @param commandTimeout how long a client waits for a node's reply
	 * @param nodeTimeout how long a quorum operation waits for a node
	 */
	record SimSetup(int nodes, Duration leaseTime, Duration commandTimeout, Duration nodeTimeout) {

	}

}
