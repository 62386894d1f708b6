package io.github.distlock.simulation;

import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;

/**
 * A client's subscription to one node's release announcements, as a Redis pub/sub
 * connection: announcements reach the client's listener after a latency (lost while the
 * subscription is down); dropped by a node restart or a fault, it is taken up again by
 * the next {@link #ensureActive}, which takes a round trip and fails while the node
 * cannot be reached.
 */
final class NodeSubscription implements ReleaseNotifications {

	private final Simulation world;

	private final Connection connection;

	private final ReleaseListener listener;

	private ReleaseNotifications atNode;

	private boolean active;

	private boolean closed;

	NodeSubscription(Simulation world, Connection connection, ReleaseListener listener) {
		this.world = world;
		this.connection = connection;
		this.listener = listener;
	}

	@Override
	public boolean ensureActive(String key, long deadlineNanos) {
		if (this.closed) {
			return false;
		}
		if (this.active) {
			return true;
		}
		try {
			this.connection.call("SUBSCRIBE", (node) -> {
				subscribeAt(node);
				return Boolean.TRUE;
			});
			return this.active;
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/** Subscribed on the node itself (at once, for a client that starts). */
	void subscribeAt(Node node) {
		if (this.closed || this.active) {
			return;
		}
		this.atNode = node.store().subscribe(new ReleaseListener() {

			@Override
			public void released(String key) {
				deliver("released " + key, () -> NodeSubscription.this.listener.released(key));
			}

			@Override
			public void granted(String key, String owner) {
				deliver("granted " + key + " to " + owner, () -> NodeSubscription.this.listener.granted(key, owner));
			}

			@Override
			public void granted(String key, String owner, long fencingToken) {
				deliver("granted " + key + " to " + owner + " " + fencingToken,
						() -> NodeSubscription.this.listener.granted(key, owner, fencingToken));
			}

		});
		node.subscribed(this);
		this.active = true;
	}

	private void deliver(String what, Runnable delivery) {
		if (!this.active || this.connection.client.isCrashed() || this.connection.isPartitioned()) {
			return;
		}
		this.world.after(this.connection.latency(), "announcement " + what + " to " + this.connection.client, () -> {
			if (this.active && !this.connection.client.isCrashed() && !this.connection.isPartitioned()) {
				delivery.run();
			}
		});
	}

	/**
	 * Dropped by the node (restart) or a fault: announcements are lost until re-taken.
	 */
	void dropped() {
		this.active = false;
		if (this.atNode != null) {
			this.atNode.close();
			this.atNode = null;
		}
		this.world.trace().log(this.connection.client.name(), "subscription to " + this.connection.node + " dropped");
	}

	@Override
	public void close() {
		this.closed = true;
		this.connection.node.unsubscribed(this);
		dropped();
	}

}
