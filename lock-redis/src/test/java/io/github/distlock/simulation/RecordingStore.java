package io.github.distlock.simulation;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.ForwardingReleaseListener;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;
import org.jspecify.annotations.Nullable;

/**
 * The store an instance's engine uses, recording in {@link Owners} which thread sent
 * which owner token and which fencing token each reply or grant gave it.
 */
final class RecordingStore extends ForwardingLockStore {

	private final Simulation world;

	private final Owners owners;

	private final Observations observations;

	RecordingStore(LockStore delegate, Simulation world, Owners owners, Observations observations) {
		super(delegate);
		this.world = world;
		this.owners = owners;
		this.observations = observations;
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		sent(key, owner);
		return acquired(key, owner, super.acquire(key, owner, leaseMillis));
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
		sent(key, owner);
		return acquired(key, owner, super.acquire(key, owner, leaseMillis, waitMillis));
	}

	@Override
	public AcquireReply acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		sent(key, owner);
		return acquired(key, owner, super.acquireFair(key, owner, leaseMillis, waitMillis));
	}

	@Override
	public AcquireReply acquireShared(String key, String owner, int permits, long leaseMillis) {
		sent(key, owner);
		return acquired(key, owner, super.acquireShared(key, owner, permits, leaseMillis));
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal,
			@Nullable String newOwnerQueuedAs) {
		sent(key, newOwner);
		HandOverReply reply = super.handOver(key, owner, newOwner, leaseMillis, mayStayLocal, newOwnerQueuedAs);
		if (reply instanceof Acquired acquired) {
			this.owners.acquired(key, newOwner, acquired.fencingToken());
		}
		return reply;
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		return handOver(key, owner, newOwner, leaseMillis, mayStayLocal, null);
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		ReleaseReply reply = super.release(key, owner);
		if (reply instanceof Released || reply instanceof NotOwned) {
			this.owners.ended(key, owner);
		}
		return reply;
	}

	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		return super.subscribe(new ForwardingReleaseListener(listener) {

			@Override
			public void granted(String key, String owner, long fencingToken) {
				RecordingStore.this.owners.acquired(key, owner, fencingToken);
				listener.granted(key, owner, fencingToken);
			}

		});
	}

	private void sent(String key, String owner) {
		SimThread thread = this.world.currentThread();
		this.observations.acquireSent((thread != null) ? thread.name : "a thread", owner);
		this.owners.sent(thread, key, owner);
	}

	private AcquireReply acquired(String key, String owner, AcquireReply reply) {
		if (reply instanceof Acquired acquired) {
			this.owners.acquired(key, owner, acquired.fencingToken());
		}
		return reply;
	}

}
