package io.github.distlock.simulation;

import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The faults of a world, drawn from its seed, one after the other until the fault phase
 * ends (in a world without faults, only the interrupts and graceful restarts): a node
 * paused (its requests wait) or stopped and started again with its data, a minority of a
 * quorum restarted empty after a delay, replies of a node lost, a node slow, connections
 * dropped (requests in flight sent again after the reconnect), a partition between an
 * instance and a node, a node's release announcements dropped, a waiting thread
 * interrupted, an instance crashed or shut down (and replaced by a new one). Each fault
 * lasts up to a few seconds.
 */
final class Nemesis {

	/**
	 * Longer than the longest lease of the workload, with the quorum's drift allowance.
	 */
	private static final long RESTART_DELAY_NANOS = TimeUnit.SECONDS.toNanos(7);

	private final Simulation world;

	private final Network network;

	private final List<Node> nodes;

	private final Instances instances;

	private final Waiting waiting;

	private final Faults faults;

	/** Nodes a fault of any stream is on now: one fault per node at a time. */
	private final Set<Node> busy;

	Nemesis(Simulation world, Network network, List<Node> nodes, Instances instances, Waiting waiting, Faults faults,
			Set<Node> busy) {
		this.world = world;
		this.network = network;
		this.nodes = nodes;
		this.instances = instances;
		this.waiting = waiting;
		this.faults = faults;
		this.busy = busy;
	}

	/**
	 * Injects faults until {@code endNanos}.
	 * @param faults whether to inject faults; without, only interrupts of waiters and
	 * graceful restarts of instances, which disturb nothing the checks allow for
	 */
	void run(long endNanos, boolean faults) {
		Random random = this.world.random();
		while (this.world.now() < endNanos) {
			pause(200 + random.nextInt(2500));
			if (this.world.now() >= endNanos) {
				return;
			}
			long lasts = TimeUnit.MILLISECONDS.toNanos(100 + random.nextInt(3000));
			Node node = this.nodes.get(random.nextInt(this.nodes.size()));
			int kind = faults ? random.nextInt(11) : (random.nextBoolean() ? 8 : 10);
			if (kind <= 6 && !this.busy.add(node)) {
				// Another stream's fault is on that node.
				continue;
			}
			switch (kind) {
				case 0 -> during(lasts, "pause " + node, node::pause, node::resume);
				case 1 -> during(lasts, "stop " + node, node::stop, () -> node.start(false));
				case 2 -> {
					if (this.nodes.size() > 1) {
						// Down for longer than any lease before it comes back empty
						// (Redlock's delayed restart): every lock it forgot had run out
						// anyway. A node that comes back empty at once can give a second
						// acquirer a majority while the first still holds: a documented
						// limit, not checked.
						during(RESTART_DELAY_NANOS, "restart " + node + " empty", node::stop, () -> node.start(true));
					}
				}
				case 3 -> during(lasts, "lose replies of " + node, () -> this.network.loseReplies(node, 0.3),
						() -> this.network.loseReplies(node, 0));
				case 4 ->
					during(lasts, "slow " + node, () -> this.network.slow(node, TimeUnit.MILLISECONDS.toNanos(400)),
							() -> this.network.slow(node, 0));
				case 5 -> during(lasts, "drop connections to " + node, () -> this.network.replay(node, 0.3),
						() -> this.network.replay(node, 0));
				case 6 -> {
					SimProcess client = this.instances.random(random);
					if (client != null) {
						during(lasts, "partition " + client + " from " + node,
								() -> this.network.partition(client, node, true),
								() -> this.network.partition(client, node, false));
					}
				}
				case 7 -> {
					this.faults.happened();
					node.dropSubscriptions();
				}
				case 8 -> interruptAWaiter(random);
				case 9 -> {
					this.faults.happened();
					this.instances.crashOne(random);
					this.faults.happened();
				}
				default -> this.instances.shutDownOne(random);
			}
			if (kind <= 6) {
				this.busy.remove(node);
			}
		}
	}

	private void interruptAWaiter(Random random) {
		List<SimThread> waiters = this.waiting.all();
		if (!waiters.isEmpty()) {
			SimThread thread = waiters.get(random.nextInt(waiters.size()));
			if (!thread.process().isCrashed()) {
				this.world.trace().log("nemesis", "interrupts " + thread);
				this.world.interrupt(thread);
			}
		}
	}

	private void during(long nanos, String what, Runnable on, Runnable off) {
		this.world.trace().log("nemesis", what + " for " + TimeUnit.NANOSECONDS.toMillis(nanos) + " ms");
		this.faults.started();
		on.run();
		try {
			pause(TimeUnit.NANOSECONDS.toMillis(nanos));
		}
		finally {
			off.run();
			this.faults.ended();
			this.world.trace().log("nemesis", "ends: " + what);
		}
	}

	private void pause(long millis) {
		long until = this.world.now() + TimeUnit.MILLISECONDS.toNanos(millis);
		while (this.world.now() < until) {
			this.world.park(until - this.world.now());
		}
	}

}
