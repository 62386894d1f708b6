package io.github.distlock.store;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import static io.github.distlock.store.InMemoryLockState.holder;
import static io.github.distlock.store.InMemoryLockState.lastReleasedBy;
import static io.github.distlock.store.InMemoryLockState.nextToken;
import static io.github.distlock.store.InMemoryLockState.plus;
import static io.github.distlock.store.InMemoryLockState.unlessForgettable;

/**
 * The fair queues of an {@link InMemoryLockStore} at work, as in Redis: the fair acquire
 * (first come, first served), and the release of a contended lock, which grants the lock
 * to the live head of its queue for the {@link InMemoryLockStore#GRANT_LEASE grant lease}
 * with the next fencing token instead of freeing it. A grant is noted in the operation's
 * {@link InMemoryReply} and announced by the store after the update.
 * <p>
 * Every method computes the new state of one key inside the store's atomic update of that
 * key.
 */
final class InMemoryGrants {

	private final InMemoryFairQueues queues;

	private final long fencingRetentionMillis;

	InMemoryGrants(InMemoryFairQueues queues, long fencingRetentionMillis) {
		this.queues = queues;
		this.fencingRetentionMillis = fencingRetentionMillis;
	}

	/**
	 * The state of {@code key} after {@code owner} asked for it fairly (see
	 * {@link LockStore#acquireFair}).
	 */
	InMemoryLockState acquireFair(String key, @Nullable InMemoryLockState state, String owner, long leaseMillis,
			long waitMillis, Instant now, InMemoryReply<AcquireReply> reply) {
		long nowMillis = now.toEpochMilli();
		String holder = holder(state, now);
		if (owner.equals(holder)) {
			// Granted to us (or a replay): claimed with the lease asked for.
			return claimed(key, state, owner, leaseMillis, now, reply);
		}
		InMemoryLockState current = state;
		if (holder == null) {
			String head = this.queues.liveHead(key, nowMillis);
			if (head == null || head.equals(owner)) {
				this.queues.remove(key, owner);
				long token = nextToken(state, now);
				reply.value = new Acquired(token);
				return new InMemoryLockState(owner, plus(now, leaseMillis),
						this.queues.liveHead(key, nowMillis) != null, token, fenceEnd(now), lastReleasedBy(state, now));
			}
			current = granted(key, state, head, lastReleasedBy(state, now), now, reply);
		}
		if (waitMillis > 0) {
			this.queues.enqueue(key, owner, nowMillis, plus(now, waitMillis));
		}
		reply.value = new HeldByOther(current.leaseEndMillis() - nowMillis);
		return current.contendedNow();
	}

	/**
	 * The state of {@code key} after an acquire by {@code owner} found the lock its own,
	 * granted to it or acquired by the first run of a replayed acquire: out of the queue,
	 * with the lease it asked for and the next fencing token, as in Redis.
	 */
	InMemoryLockState claimed(String key, InMemoryLockState state, String owner, long leaseMillis, Instant now,
			InMemoryReply<AcquireReply> reply) {
		this.queues.remove(key, owner);
		long token = nextToken(state, now);
		reply.value = new Acquired(token);
		return new InMemoryLockState(owner, plus(now, leaseMillis), state.contended(), token, fenceEnd(now),
				state.releasedBy());
	}

	/**
	 * The state of {@code key} after its holder {@code owner} let it go: granted to the
	 * live head of its queue when it is contended and somebody is queued, freed (and the
	 * release announced, if contended) otherwise.
	 * @return the new state, or {@code null} when there is nothing left to remember
	 */
	@Nullable InMemoryLockState released(String key, InMemoryLockState state, String owner, Instant now, InMemoryReply<?> reply) {
		String head = state.contended() ? this.queues.liveHead(key, now.toEpochMilli()) : null;
		if (head != null) {
			return granted(key, state, head, owner, now, reply);
		}
		reply.announce = state.contended();
		return unlessForgettable(state.releasedNowBy(owner), now);
	}

	/**
	 * The state of a lock the release of {@code releasedBy} (if any) grants to the live
	 * head of its queue, with the grant lease and the next fencing token; the grant is
	 * announced after the update.
	 */
	private InMemoryLockState granted(String key, @Nullable InMemoryLockState state, String head,
			@Nullable String releasedBy, Instant now, InMemoryReply<?> reply) {
		this.queues.remove(key, head);
		long token = nextToken(state, now);
		reply.grantedTo = head;
		reply.grantToken = token;
		boolean more = this.queues.liveHead(key, now.toEpochMilli()) != null;
		return new InMemoryLockState(head, plus(now, InMemoryLockStore.GRANT_LEASE.toMillis()), more, token,
				fenceEnd(now), releasedBy);
	}

	private long fenceEnd(Instant now) {
		return plus(now, this.fencingRetentionMillis);
	}

}
