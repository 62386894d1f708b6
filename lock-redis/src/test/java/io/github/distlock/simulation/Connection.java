package io.github.distlock.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;

/**
 * A client's connection to a node: requests arrive in the order sent and replies come
 * back in the order applied (one TCP connection), each after a latency drawn from the
 * world's random source. The caller waits for its reply at most the command timeout; a
 * request the caller gave up on may still be applied. The network's faults decide whether
 * a request or a reply is lost or delayed, and when the connection drops.
 * <p>
 * A drop is modelled as Lettuce handles one (at-least-once): it comes right after a
 * request was applied, whose reply is lost with every other reply and request in flight;
 * after a reconnect delay, every request still unanswered is sent again, in the order
 * first sent, then those sent meanwhile. A request applied before the drop is so applied
 * twice, and its caller sees the second reply. Requests their callers gave up on are
 * cancelled, not sent again (Lettuce's {@code awaitOrCancel}).
 */
final class Connection {

	private final Simulation world;

	private final Network network;

	final SimProcess client;

	final Node node;

	private final long commandTimeoutNanos;

	/** Sent and not answered yet, in the order first sent. */
	private final List<Request<?>> unanswered = new ArrayList<>();

	private long lastArrival;

	private long lastReply;

	/** Bumped by every drop: messages of an earlier epoch are lost. */
	private int epoch;

	/** While reconnecting, requests wait to be sent until then. */
	private long reconnectAt = Long.MIN_VALUE;

	/** Closed by the application context's shutdown: no command is sent any more. */
	private boolean closed;

	Connection(Simulation world, Network network, SimProcess client, Node node, long commandTimeoutNanos) {
		this.world = world;
		this.network = network;
		this.client = client;
		this.node = node;
		this.commandTimeoutNanos = commandTimeoutNanos;
	}

	/**
	 * Sends {@code op} to the node and waits for its reply.
	 * @return the node's reply
	 * @throws QueryTimeoutException when no reply came within the command timeout
	 * @throws DataAccessResourceFailureException when the node refused the connection
	 * @throws RuntimeException what the node's operation threw
	 */
	<T> T call(String what, Function<Node, T> op) {
		SimThread caller = this.world.currentThread();
		if (caller == null || caller.isKilled()) {
			throw new Killed();
		}
		if (this.closed) {
			throw new DataAccessResourceFailureException(what + " on " + this.node + ": the connection is closed");
		}
		Request<T> request = new Request<>(what, op, caller);
		long sentAt = this.world.now();
		this.unanswered.add(request);
		if (this.world.now() >= this.reconnectAt) {
			transmit(request);
		}
		while (!request.done) {
			if (Thread.currentThread().isInterrupted()) {
				// As Lettuce: the caller stops waiting, its flag kept; the command may
				// still be applied.
				request.abandoned = true;
				throw new DataAccessResourceFailureException(what + " on " + this.node + ": interrupted",
						new InterruptedException());
			}
			long left = sentAt + this.commandTimeoutNanos - this.world.now();
			if (left <= 0) {
				request.abandoned = true;
				throw new QueryTimeoutException(what + " on " + this.node + ": no reply within the command timeout");
			}
			this.world.park(left);
		}
		if (request.failure != null) {
			throw request.failure;
		}
		return request.value;
	}

	/** Closes the connection, as the connection factory's shutdown does. */
	void close() {
		this.closed = true;
	}

	private <T> void transmit(Request<T> request) {
		if (this.network.loses(this, true)) {
			this.world.trace().log(this.client.name(), request.what + " to " + this.node + " lost on the way");
			return;
		}
		int sentIn = this.epoch;
		long arrival = Math.max(this.world.now() + this.network.latency(this), this.lastArrival + 1);
		this.lastArrival = arrival;
		this.world.at(arrival, request.what + " arrives at " + this.node, () -> {
			if (sentIn != this.epoch) {
				// Lost with the connection: sent again after the reconnect.
				return;
			}
			boolean taken = this.node.arrive(() -> apply(request, sentIn));
			if (!taken) {
				reply(request, null, new DataAccessResourceFailureException(this.node + " refused the connection"),
						sentIn);
			}
		});
	}

	private <T> void apply(Request<T> request, int sentIn) {
		T value = null;
		RuntimeException failure = null;
		try {
			value = request.op.apply(this.node);
		}
		catch (RuntimeException ex) {
			failure = ex;
		}
		this.world.trace()
			.log(this.node.name, request.what + " from " + this.client + " -> " + ((failure != null) ? failure : value)
					+ (request.abandoned ? " (its caller gave up)" : ""));
		if (sentIn == this.epoch && this.network.replays(this)) {
			drop();
			return;
		}
		reply(request, value, failure, sentIn);
	}

	/** The connection drops now; every unanswered request is sent again later. */
	private void drop() {
		this.epoch++;
		this.reconnectAt = this.world.now() + this.network.replayDelay();
		this.world.trace()
			.log(this.client.name(), "connection to " + this.node + " dropped; reconnects in "
					+ (this.reconnectAt - this.world.now()) / 1_000_000 + " ms");
		this.world.at(this.reconnectAt, "reconnect of " + this, () -> {
			for (Request<?> request : List.copyOf(this.unanswered)) {
				if (request.abandoned) {
					this.unanswered.remove(request);
				}
				else {
					transmit(request);
				}
			}
		});
	}

	private <T> void reply(Request<T> request, T value, RuntimeException failure, int sentIn) {
		if (this.client.isCrashed() || this.network.loses(this, false)) {
			return;
		}
		long arrival = Math.max(this.world.now() + this.network.latency(this), this.lastReply + 1);
		this.lastReply = arrival;
		this.world.at(arrival, "reply to " + request.caller, () -> {
			if (sentIn != this.epoch) {
				return;
			}
			this.unanswered.remove(request);
			if (!request.done) {
				request.value = value;
				request.failure = failure;
				request.done = true;
				this.world.unpark(request.caller);
			}
		});
	}

	/** A latency drawn for one message on this connection. */
	long latency() {
		return this.network.latency(this);
	}

	boolean isPartitioned() {
		return this.network.isPartitioned(this.client, this.node);
	}

	@Override
	public String toString() {
		return this.client + "->" + this.node;
	}

	/** One request and its reply. */
	private static final class Request<T> {

		final String what;

		final Function<Node, T> op;

		final SimThread caller;

		boolean done;

		boolean abandoned;

		T value;

		RuntimeException failure;

		Request(String what, Function<Node, T> op, SimThread caller) {
			this.what = what;
			this.op = op;
			this.caller = caller;
		}

	}

}
