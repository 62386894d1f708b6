package io.github.distlock.simulation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.store.InMemoryLockStore;

/**
 * A simulated store node: the in-memory store's operations (held to the same contract as
 * the Redis scripts) on the world's clock plus a skew of its own, its part in the
 * quorum's fencing records, and its faults: paused (requests wait, as in a SIGSTOPped
 * Redis), down (requests refused), restarted empty (every lock, queue and record
 * forgotten).
 */
final class Node {

	final String name;

	private final Simulation world;

	private final Duration fencingRetention;

	private final NodeClock clock;

	private InMemoryLockStore store;

	private NodeFence fence;

	private final ArrayDeque<Runnable> backlog = new ArrayDeque<>();

	/** Subscriptions of clients to this node's release announcements. */
	private final List<NodeSubscription> subscriptions = new ArrayList<>();

	private boolean paused;

	private boolean down;

	Node(String name, Simulation world, Duration fencingRetention, long skewNanos) {
		this.name = name;
		this.world = world;
		this.fencingRetention = fencingRetention;
		this.clock = new NodeClock(world, skewNanos);
		this.store = new InMemoryLockStore(this.clock, fencingRetention);
		this.fence = new NodeFence(this.clock, fencingRetention);
	}

	InMemoryLockStore store() {
		return this.store;
	}

	NodeFence fence() {
		return this.fence;
	}

	/**
	 * A request arrives: applied now, held back while paused, refused while down.
	 * @return whether it was applied or will be (false: refused)
	 */
	boolean arrive(Runnable apply) {
		if (this.down) {
			return false;
		}
		if (this.paused) {
			this.backlog.addLast(apply);
		}
		else {
			apply.run();
		}
		return true;
	}

	void pause() {
		this.paused = true;
		this.world.trace().log(this.name, "paused");
	}

	void resume() {
		this.paused = false;
		this.world.trace().log(this.name, "resumed, " + this.backlog.size() + " requests waiting");
		while (!this.paused && !this.backlog.isEmpty()) {
			this.backlog.pollFirst().run();
		}
	}

	boolean isPaused() {
		return this.paused;
	}

	boolean isDown() {
		return this.down;
	}

	/** Stops: what waited is lost, subscriptions dropped; data kept for a restart. */
	void stop() {
		this.down = true;
		this.paused = false;
		this.backlog.clear();
		dropSubscriptions();
		this.world.trace().log(this.name, "stopped");
	}

	/** Starts again, with its data or empty. */
	void start(boolean empty) {
		if (empty) {
			this.store = new InMemoryLockStore(this.clock, this.fencingRetention);
			this.fence = new NodeFence(this.clock, this.fencingRetention);
		}
		this.down = false;
		this.world.trace().log(this.name, empty ? "restarted empty" : "restarted with its data");
	}

	void subscribed(NodeSubscription subscription) {
		this.subscriptions.add(subscription);
	}

	void unsubscribed(NodeSubscription subscription) {
		this.subscriptions.remove(subscription);
	}

	/** Every client loses its subscription (a restart, a dropped pub/sub connection). */
	void dropSubscriptions() {
		for (NodeSubscription subscription : List.copyOf(this.subscriptions)) {
			subscription.dropped();
		}
		this.subscriptions.clear();
	}

	List<NodeSubscription> subscriptions() {
		return this.subscriptions;
	}

	@Override
	public String toString() {
		return this.name;
	}

	/** The node's clock: the world's time and the node's skew. */
	static final class NodeClock extends Clock {

		private final Simulation world;

		private final long skewNanos;

		NodeClock(Simulation world, long skewNanos) {
			this.world = world;
			this.skewNanos = skewNanos;
		}

		@Override
		public Instant instant() {
			long nanos = this.world.now() + this.skewNanos;
			return Instant.ofEpochSecond(0, nanos);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

	}

}
