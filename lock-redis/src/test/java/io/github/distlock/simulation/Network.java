package io.github.distlock.simulation;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The simulated network between clients and nodes: a latency for every message, and the
 * faults the nemesis switches on and off: partitions between a client and a node (every
 * message lost), lost replies, slow nodes (latency spikes), and requests a client sends
 * twice (applied twice: a replay after a reconnect).
 */
final class Network {

	private static final long BASE_LATENCY_NANOS = TimeUnit.MICROSECONDS.toNanos(150);

	private static final long TAIL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	private final Random random;

	private final Set<String> partitions = new HashSet<>();

	private final Map<Node, Double> replyLoss = new HashMap<>();

	private final Map<Node, Long> slowness = new HashMap<>();

	private final Map<Node, Double> replays = new HashMap<>();

	Network(Simulation world) {
		this.random = world.random();
	}

	long latency(Connection connection) {
		long extra = this.slowness.getOrDefault(connection.node, 0L);
		// A tail in calm too (a pause of the sender or the receiver, a retransmission):
		// one message in 50 takes 1 to 20 ms more.
		long tail = (this.random.nextInt(50) == 0) ? TAIL_NANOS / 20 + this.random.nextLong(TAIL_NANOS) : 0;
		return BASE_LATENCY_NANOS + this.random.nextLong(BASE_LATENCY_NANOS) + tail + extra
				+ ((extra > 0) ? this.random.nextLong(extra) : 0);
	}

	/** Whether this request (or reply) is lost. */
	boolean loses(Connection connection, boolean request) {
		if (this.partitions.contains(key(connection.client, connection.node))) {
			return true;
		}
		Double loss = this.replyLoss.get(connection.node);
		return !request && loss != null && this.random.nextDouble() < loss;
	}

	/** Whether the connection drops right after this request was applied. */
	boolean replays(Connection connection) {
		Double probability = this.replays.get(connection.node);
		return probability != null && this.random.nextDouble() < probability;
	}

	/** How long a dropped connection takes to reconnect. */
	long replayDelay() {
		return TimeUnit.MILLISECONDS.toNanos(1 + this.random.nextInt(2000));
	}

	/** Whether messages between {@code client} and {@code node} are lost. */
	boolean isPartitioned(SimProcess client, Node node) {
		return this.partitions.contains(key(client, node));
	}

	void partition(SimProcess client, Node node, boolean on) {
		if (on) {
			this.partitions.add(key(client, node));
		}
		else {
			this.partitions.remove(key(client, node));
		}
	}

	void loseReplies(Node node, double probability) {
		if (probability > 0) {
			this.replyLoss.put(node, probability);
		}
		else {
			this.replyLoss.remove(node);
		}
	}

	void slow(Node node, long extraNanos) {
		if (extraNanos > 0) {
			this.slowness.put(node, extraNanos);
		}
		else {
			this.slowness.remove(node);
		}
	}

	void replay(Node node, double probability) {
		if (probability > 0) {
			this.replays.put(node, probability);
		}
		else {
			this.replays.remove(node);
		}
	}

	/** Whether any fault of the network is on now. */
	boolean faulty() {
		return !this.partitions.isEmpty() || !this.replyLoss.isEmpty() || !this.slowness.isEmpty()
				|| !this.replays.isEmpty();
	}

	private static String key(SimProcess client, Node node) {
		return client.name() + "|" + node.name;
	}

}
