package io.github.distlock.store;

import java.time.Instant;
import java.util.HashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import static io.github.distlock.store.InMemoryLockState.hasEnded;
import static io.github.distlock.store.InMemoryLockState.holder;
import static io.github.distlock.store.InMemoryLockState.leaseEnd;
import static io.github.distlock.store.InMemoryLockState.micros;
import static io.github.distlock.store.InMemoryLockState.nextToken;
import static io.github.distlock.store.InMemoryLockState.receiptOf;
import static io.github.distlock.store.InMemoryLockState.remainingMillis;

/**
 * The shared holds of an {@link InMemoryLockStore} (READ holds and permits), as in Redis:
 * a key held shared has the owner {@code "\n<permits>"} in its state (owner tokens never
 * contain a line break), with the lease end of its latest hold, so every exclusive
 * operation finds it held by another owner; the holds themselves, owner &rarr; lease end,
 * are kept here. Every method runs inside the store's atomic update of the key.
 */
final class InMemorySharedHolds {

	private static final String MARKER = "\n";

	private final ConcurrentHashMap<String, Holds> holds = new ConcurrentHashMap<>();

	private final InMemoryGrants grants;

	private final InMemoryFairQueues queues;

	private final long fencingRetentionMillis;

	InMemorySharedHolds(InMemoryGrants grants, InMemoryFairQueues queues, long fencingRetentionMillis) {
		this.grants = grants;
		this.queues = queues;
		this.fencingRetentionMillis = fencingRetentionMillis;
	}

	/** The holds of one key held shared: owner to lease end in microseconds. */
	private record Holds(int permits, HashMap<String, Long> ends) {

		long latestEnd() {
			long latest = 0;
			for (long end : this.ends.values()) {
				latest = Math.max(latest, end);
			}
			return latest;
		}

	}

	/**
	 * The state of {@code key} after {@code owner} asked for a shared hold (see
	 * {@link LockStore#acquireShared}).
	 */
	@Nullable InMemoryLockState acquire(String key, @Nullable InMemoryLockState state, String owner, int permits,
			long leaseMillis, Instant now, InMemoryReply<AcquireReply> reply) {
		if (hasEnded(state, owner, now)) {
			reply.value = new HeldByOther(remainingMillis(state, now));
			return state;
		}
		String holder = holder(state, now);
		Holds current = live(key, holder, now);
		if (holder != null && current == null) {
			reply.value = new HeldByOther(remainingMillis(state, now));
			return state.contendedNow();
		}
		if (current != null && current.permits != permits) {
			throw new SharedLockConflictException(key, current.permits, permits);
		}
		long end = leaseEnd(now, leaseMillis);
		if (current != null && current.ends.containsKey(owner)) {
			// A replay: ours, with at least the lease asked for.
			current.ends.merge(owner, end, Math::max);
			return acquired(state, current, now, reply);
		}
		String head = this.queues.liveHead(key, now.toEpochMilli());
		InMemoryLockState refused = state;
		if (head != null) {
			// A writer waits: it goes first (no writer starvation).
			if (holder == null) {
				refused = this.grants.granted(key, state, head, receiptOf(state), now, reply);
			}
		}
		else if (current == null || permits == 0 || current.ends.size() < permits) {
			Holds holds = (current != null) ? current : new Holds(permits, new HashMap<>());
			holds.ends.put(owner, end);
			this.holds.put(key, holds);
			return acquired(state, holds, now, reply);
		}
		reply.value = new HeldByOther(remainingMillis(refused, now));
		return refused.contendedNow();
	}

	private InMemoryLockState acquired(@Nullable InMemoryLockState state, Holds holds, Instant now,
			InMemoryReply<AcquireReply> reply) {
		long token = nextToken(state, now);
		reply.value = new Acquired(token);
		boolean contended = state != null && MARKER.concat(Integer.toString(holds.permits)).equals(state.owner())
				&& state.contended();
		return new InMemoryLockState(MARKER + holds.permits, holds.latestEnd(), contended, token,
				InMemoryLockState.plus(now, this.fencingRetentionMillis), receiptOf(state));
	}

	/** Whether {@code holder} is an owner token, not the mark of a key held shared. */
	static boolean isOwner(String holder) {
		return !holder.startsWith(MARKER);
	}

	/** The owners of the live shared holds of {@code key}. */
	Set<String> owners(String key, @Nullable InMemoryLockState state, Instant now) {
		Holds current = live(key, holder(state, now), now);
		return (current != null) ? Set.copyOf(current.ends.keySet()) : Set.of();
	}

	/** Whether {@code owner} has a shared hold of {@code key}, live or run out. */
	boolean holds(String key, @Nullable InMemoryLockState state, String owner, Instant now) {
		Holds current = live(key, holder(state, now), now);
		return current != null && current.ends.containsKey(owner);
	}

	/**
	 * The state of {@code key} after {@code owner}, which {@link #holds holds} it, let
	 * its hold go: {@link Released} if its lease had not run out, {@link NotOwned}
	 * otherwise. The last hold frees the key as a holder's release does; a permit
	 * released while others are held announces a release of a contended key (a permit
	 * came free).
	 */
	@Nullable InMemoryLockState release(String key, InMemoryLockState state, String owner, Instant now,
			InMemoryReply<ReleaseReply> reply) {
		Holds current = this.holds.get(key);
		boolean live = current.ends.remove(owner) > micros(now);
		reply.value = live ? Released.INSTANCE : NotOwned.INSTANCE;
		if (current.ends.isEmpty()) {
			this.holds.remove(key);
			return this.grants.released(key, state, owner, now, reply);
		}
		reply.announce = live && current.permits > 0 && state.contended();
		InMemoryReceipt receipt = state.receipt().noted(now.toEpochMilli(), this.fencingRetentionMillis, owner, live);
		return state.withLeaseEnd(current.latestEnd()).withReceipt(receipt);
	}

	/**
	 * The state of {@code key} after {@code owner}, which {@link #holds holds} it, asked
	 * to reset its lease: {@link Extended} if it had not run out.
	 */
	InMemoryLockState extend(String key, InMemoryLockState state, String owner, long leaseMillis, Instant now,
			InMemoryReply<ExtendReply> reply) {
		Holds current = this.holds.get(key);
		if (current.ends.get(owner) <= micros(now)) {
			reply.value = NotOwned.INSTANCE;
			return state;
		}
		current.ends.put(owner, leaseEnd(now, leaseMillis));
		reply.value = Extended.INSTANCE;
		return state.withLeaseEnd(current.latestEnd());
	}

	/**
	 * The holds of {@code key} held shared now ({@code holder} is its live holder), with
	 * the run-out ones dropped; {@code null} (and nothing kept) when it is not held
	 * shared.
	 */
	private @Nullable Holds live(String key, @Nullable String holder, Instant now) {
		if (holder == null || !holder.startsWith(MARKER)) {
			this.holds.remove(key);
			return null;
		}
		Holds current = this.holds.get(key);
		if (current != null) {
			long nowMicros = micros(now);
			current.ends.values().removeIf((end) -> end <= nowMicros);
		}
		return current;
	}

	/**
	 * Forgets the holds of keys no longer held shared (their last holders died), each
	 * inside the atomic update of its key.
	 */
	void purge(ConcurrentHashMap<String, InMemoryLockState> states, Instant now) {
		for (String key : this.holds.keySet()) {
			states.compute(key, (k, state) -> {
				live(k, holder(state, now), now);
				return state;
			});
		}
	}

}
