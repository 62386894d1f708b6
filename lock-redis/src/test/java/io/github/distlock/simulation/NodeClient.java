package io.github.distlock.simulation;

import io.github.distlock.redis.QuorumFenceRecords;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Unknown;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;

/**
 * A client's {@link LockStore} on one simulated node, over its {@link Connection}: every
 * operation is the node's in-memory store operation, applied when the request arrives; a
 * reply that does not come within the command timeout, or a refused connection, is
 * {@link Unknown}, as the Redis store answers. Also the node's fencing records, for a
 * quorum.
 */
final class NodeClient implements LockStore, QuorumFenceRecords {

	private final Simulation world;

	private final Connection connection;

	NodeClient(Simulation world, Connection connection) {
		this.world = world;
		this.connection = connection;
	}

	Node node() {
		return this.connection.node;
	}

	@Override
	public String key(String lockId) {
		// Pure: the node's own naming, no round trip.
		return this.connection.node.store().key(lockId);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		return unknownOnFailure(() -> this.connection.call("ACQUIRE " + key + " " + owner,
				(node) -> node.store().acquire(key, owner, leaseMillis)));
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
		return unknownOnFailure(() -> this.connection.call("ACQUIRE_QUEUED " + key + " " + owner,
				(node) -> node.store().acquire(key, owner, leaseMillis, waitMillis)));
	}

	@Override
	public AcquireReply acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		return unknownOnFailure(() -> this.connection.call("ACQUIRE_FAIR " + key + " " + owner,
				(node) -> node.store().acquireFair(key, owner, leaseMillis, waitMillis)));
	}

	@Override
	public boolean supportsFairLocks() {
		return true;
	}

	@Override
	public boolean supportsSharedLocks() {
		return true;
	}

	@Override
	public AcquireReply acquireShared(String key, String owner, int permits, long leaseMillis) {
		return unknownOnFailure(() -> this.connection.call("ACQUIRE_SHARED " + key + " " + owner + " " + permits,
				(node) -> node.store().acquireShared(key, owner, permits, leaseMillis)));
	}

	@Override
	public long grantLeaseMillis() {
		return InMemoryLockStore.GRANT_LEASE.toMillis();
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		return handOver(key, owner, newOwner, leaseMillis, mayStayLocal, null);
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal,
			@Nullable String newOwnerQueuedAs) {
		return unknownOnFailure(() -> this.connection.call("HAND_OVER " + key + " " + owner + " -> " + newOwner,
				(node) -> node.store().handOver(key, owner, newOwner, leaseMillis, mayStayLocal, newOwnerQueuedAs)));
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		return unknownOnFailure(
				() -> this.connection.call("RELEASE " + key + " " + owner, (node) -> node.store().release(key, owner)));
	}

	@Override
	public ReleaseReply withdraw(String key, String owner) {
		return unknownOnFailure(() -> this.connection.call("WITHDRAW " + key + " " + owner,
				(node) -> node.store().withdraw(key, owner)));
	}

	@Override
	public ExtendReply extend(String key, String owner, long leaseMillis) {
		return unknownOnFailure(() -> this.connection.call("EXTEND " + key + " " + owner + " " + leaseMillis,
				(node) -> node.store().extend(key, owner, leaseMillis)));
	}

	@Override
	public long remainingLeaseMillis(String key) {
		return this.connection.call("PTTL " + key, (node) -> node.store().remainingLeaseMillis(key));
	}

	@Override
	public void verify() {
		this.connection.call("VERIFY", (node) -> Boolean.TRUE);
	}

	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		NodeSubscription subscription = new NodeSubscription(this.world, this.connection, listener);
		Node node = this.connection.node;
		if (!node.isDown() && !node.isPaused() && !this.connection.isPartitioned()) {
			subscription.subscribeAt(node);
		}
		return subscription;
	}

	@Override
	public Recorded record(String key, long proposal) {
		return this.connection.call("FENCE " + key + " " + proposal, (node) -> node.fence().record(key, proposal));
	}

	@SuppressWarnings("unchecked")
	private static <R> R unknownOnFailure(java.util.function.Supplier<R> call) {
		try {
			return call.get();
		}
		catch (DataAccessException ex) {
			return (R) new Unknown(ex);
		}
	}

}
