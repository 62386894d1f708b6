package io.github.distlock.store;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import static io.github.distlock.store.InMemoryLockState.ended;
import static io.github.distlock.store.InMemoryLockState.hasReleased;
import static io.github.distlock.store.InMemoryLockState.holder;
import static io.github.distlock.store.InMemoryLockState.leaseEnd;
import static io.github.distlock.store.InMemoryLockState.unlessForgettable;

/**
 * The owner-checked operations of an {@link InMemoryLockStore} on what an owner holds, a
 * lock or a shared hold: release and extend. Every method computes the new state of one
 * key inside the store's atomic update of that key.
 */
final class InMemoryReleases {

	private final InMemoryGrants grants;

	private final InMemorySharedHolds shared;

	private final InMemoryFairQueues queues;

	private final long fencingRetentionMillis;

	InMemoryReleases(InMemoryGrants grants, InMemorySharedHolds shared, InMemoryFairQueues queues,
			long fencingRetentionMillis) {
		this.grants = grants;
		this.shared = shared;
		this.queues = queues;
		this.fencingRetentionMillis = fencingRetentionMillis;
	}

	/**
	 * The state of {@code key} after {@code owner} released what it holds (see
	 * {@link LockStore#release}); an owner that holds nothing leaves the queue, and its
	 * end is noted, so that a late copy of its acquire changes nothing.
	 */
	@Nullable InMemoryLockState release(String key, @Nullable InMemoryLockState state, String owner, Instant now,
			InMemoryReply<ReleaseReply> reply) {
		if (owner.equals(holder(state, now))) {
			reply.value = Released.INSTANCE;
			return this.grants.released(key, state, owner, now, reply);
		}
		if (this.shared.holds(key, state, owner, now)) {
			return this.shared.release(key, state, owner, now, reply);
		}
		// Not the holder: a waiter giving up leaves the queue, and a late copy of its
		// acquire will change nothing.
		this.queues.remove(key, owner);
		if (hasReleased(state, owner, now)) {
			// A replay of a release that released.
			reply.value = Released.INSTANCE;
			return unlessForgettable(state, now);
		}
		reply.value = NotOwned.INSTANCE;
		return ended(state, owner, now, this.fencingRetentionMillis);
	}

	/**
	 * The state of {@code key} after {@code owner} asked to reset the lease of what it
	 * holds to {@code leaseMillis} from now (see {@link LockStore#extend}).
	 */
	@Nullable InMemoryLockState extend(String key, @Nullable InMemoryLockState state, String owner, long leaseMillis, Instant now,
			InMemoryReply<ExtendReply> reply) {
		if (owner.equals(holder(state, now))) {
			reply.value = Extended.INSTANCE;
			return state.withLeaseEnd(leaseEnd(now, leaseMillis));
		}
		if (this.shared.holds(key, state, owner, now)) {
			return this.shared.extend(key, state, owner, leaseMillis, now, reply);
		}
		reply.value = NotOwned.INSTANCE;
		return unlessForgettable(state, now);
	}

}
