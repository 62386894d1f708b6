package io.github.distlock.store;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import static io.github.distlock.store.InMemoryLockState.ended;
import static io.github.distlock.store.InMemoryLockState.hasEnded;
import static io.github.distlock.store.InMemoryLockState.hasReleased;
import static io.github.distlock.store.InMemoryLockState.holder;
import static io.github.distlock.store.InMemoryLockState.leaseEnd;
import static io.github.distlock.store.InMemoryLockState.nextToken;
import static io.github.distlock.store.InMemoryLockState.receiptOf;
import static io.github.distlock.store.InMemoryLockState.remainingMillis;
import static io.github.distlock.store.InMemoryLockState.plus;
import static io.github.distlock.store.InMemoryLockState.unlessForgettable;

/**
 * The fair queues of an {@link InMemoryLockStore} at work, as in Redis: the fair acquire
 * (first come, first served), and the release of a contended lock, which grants the lock
 * to the live head of its queue, with the lease that head asked for and the next fencing
 * token, instead of freeing it. A grant is noted in the operation's {@link InMemoryReply}
 * and announced by the store after the update.
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
	 * The state of {@code key} after {@code owner} asked for it in the default mode (see
	 * {@link LockStore#acquire(String, String, long, long)}): a free lock is taken at
	 * once, one held by others refused, its owner queued when it waits; an owner whose
	 * part in the lock ended is refused and changes nothing (a late copy).
	 */
	@Nullable InMemoryLockState acquire(String key, @Nullable InMemoryLockState state, String owner, long leaseMillis,
			long waitMillis, Instant now, InMemoryReply<AcquireReply> reply) {
		if (hasEnded(state, owner, now)) {
			reply.value = new HeldByOther(remainingMillis(state, now));
			return state;
		}
		long nowMillis = now.toEpochMilli();
		String holder = holder(state, now);
		if (holder == null) {
			boolean othersQueued = false;
			if (waitMillis > 0) {
				// Its entry of an earlier attempt, if any, is withdrawn; the lock is
				// flagged
				// while others are queued, so that its release grants it on.
				this.queues.remove(key, owner);
				othersQueued = this.queues.liveHead(key, nowMillis) != null;
			}
			long token = nextToken(state, now);
			reply.value = new Acquired(token);
			return new InMemoryLockState(owner, leaseEnd(now, leaseMillis), othersQueued, token, fenceEnd(now),
					receiptOf(state));
		}
		if (holder.equals(owner)) {
			// Granted to us, or a replay: ours, with at least the lease asked for, as in
			// Redis.
			return claimed(key, state, owner, leaseMillis, now, reply);
		}
		if (waitMillis > 0) {
			this.queues.enqueue(key, owner, nowMillis, plus(now, waitMillis), leaseMillis);
		}
		reply.value = new HeldByOther(remainingMillis(state, now));
		return state.contendedNow();
	}

	/**
	 * The state of {@code key} after {@code owner} asked for it fairly (see
	 * {@link LockStore#acquireFair}).
	 */
	InMemoryLockState acquireFair(String key, @Nullable InMemoryLockState state, String owner, long leaseMillis,
			long waitMillis, Instant now, InMemoryReply<AcquireReply> reply) {
		if (hasEnded(state, owner, now)) {
			reply.value = new HeldByOther(remainingMillis(state, now));
			return state;
		}
		long nowMillis = now.toEpochMilli();
		String holder = holder(state, now);
		if (owner.equals(holder)) {
			// Granted to us (or a replay): claimed with at least the lease asked for.
			return claimed(key, state, owner, leaseMillis, now, reply);
		}
		InMemoryLockState current = state;
		if (holder == null) {
			String head = this.queues.liveHead(key, nowMillis);
			if (head == null || head.equals(owner)) {
				this.queues.remove(key, owner);
				long token = nextToken(state, now);
				reply.value = new Acquired(token);
				return new InMemoryLockState(owner, leaseEnd(now, leaseMillis),
						this.queues.liveHead(key, nowMillis) != null, token, fenceEnd(now), receiptOf(state));
			}
			current = granted(key, state, head, receiptOf(state), now, reply);
		}
		if (waitMillis > 0) {
			this.queues.enqueue(key, owner, nowMillis, plus(now, waitMillis), leaseMillis);
		}
		reply.value = new HeldByOther(remainingMillis(current, now));
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
		// At least the lease asked for; a longer one (extended since) is kept.
		long leaseEnd = Math.max(state.leaseEndMicros(), leaseEnd(now, leaseMillis));
		return new InMemoryLockState(owner, leaseEnd, state.contended(), token, fenceEnd(now), state.receipt());
	}

	/**
	 * The state of {@code key} after {@code owner} handed it to {@code newOwner} (see
	 * {@link LockStore#handOver(String, String, String, long, boolean, String)}), as in
	 * Redis: the end of {@code owner} is noted in the receipt, also when the lock was
	 * released instead or was not its own.
	 */
	InMemoryLockState handOver(String key, @Nullable InMemoryLockState state, String owner, String newOwner,
			long leaseMillis, boolean mayStayLocal, @Nullable String newOwnerQueuedAs, Instant now,
			InMemoryReply<HandOverReply> reply) {
		String holder = holder(state, now);
		if (newOwner.equals(holder)) {
			// A replay of a hand-over that handed over.
			long token = nextToken(state, now);
			reply.value = new Acquired(token);
			return new InMemoryLockState(newOwner, state.leaseEndMicros(), state.contended(), token, fenceEnd(now),
					state.receipt());
		}
		if (!owner.equals(holder)) {
			if (hasReleased(state, owner, now)) {
				// A replay of a hand-over that released.
				reply.value = Released.INSTANCE;
				return unlessForgettable(state, now);
			}
			reply.value = NotOwned.INSTANCE;
			return ended(state, owner, now, this.fencingRetentionMillis);
		}
		if (state.contended() && !mayStayLocal) {
			reply.value = Released.INSTANCE;
			return released(key, state, owner, now, reply);
		}
		if (newOwnerQueuedAs != null) {
			this.queues.remove(key, newOwnerQueuedAs);
		}
		long token = nextToken(state, now);
		reply.value = new Acquired(token);
		return new InMemoryLockState(newOwner, leaseEnd(now, leaseMillis), state.contended(), token, fenceEnd(now),
				state.receipt().noted(now.toEpochMilli(), this.fencingRetentionMillis, owner, false));
	}

	/**
	 * The state of {@code key} after its holder {@code owner} let it go (its end noted in
	 * the receipt): granted to the live head of its queue when it is contended and
	 * somebody is queued, freed (and the release announced, if contended) otherwise.
	 * @return the new state, or {@code null} when there is nothing left to remember
	 */
	@Nullable InMemoryLockState released(String key, InMemoryLockState state, String owner, Instant now, InMemoryReply<?> reply) {
		String head = null;
		if (state.contended()) {
			// Its own entry of an earlier attempt, if any, goes: an acquisition that ends
			// is not granted the lock again (its last attempt, with no wait left, took
			// the free lock without withdrawing the entry).
			this.queues.remove(key, owner);
			head = this.queues.liveHead(key, now.toEpochMilli());
		}
		if (head != null) {
			InMemoryReceipt receipt = state.receipt()
				.noted(now.toEpochMilli(), this.fencingRetentionMillis, owner, true);
			return granted(key, state, head, receipt, now, reply);
		}
		reply.announce = state.contended();
		return unlessForgettable(state.releasedNowBy(owner, now, this.fencingRetentionMillis), now);
	}

	/**
	 * The state of a lock granted to the live head of its queue, with the lease that head
	 * asked for and the next fencing token; the grant is announced after the update.
	 */
	InMemoryLockState granted(String key, @Nullable InMemoryLockState state, String head, InMemoryReceipt receipt,
			Instant now, InMemoryReply<?> reply) {
		long leaseMillis = this.queues.leaseOf(key, head);
		this.queues.remove(key, head);
		long token = nextToken(state, now);
		reply.grantedTo = head;
		reply.grantToken = token;
		boolean more = this.queues.liveHead(key, now.toEpochMilli()) != null;
		return new InMemoryLockState(head, leaseEnd(now, leaseMillis), more, token, fenceEnd(now), receipt);
	}

	private long fenceEnd(Instant now) {
		return plus(now, this.fencingRetentionMillis);
	}

}
