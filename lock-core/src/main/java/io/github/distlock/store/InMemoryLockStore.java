package io.github.distlock.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import io.github.distlock.support.DurationText;
import org.jspecify.annotations.Nullable;

import static io.github.distlock.store.InMemoryLockState.holder;

/**
 * The locks in this JVM's memory: the {@link LockStore} contract for tests and single-JVM
 * use. It excludes other threads and lock services sharing this store object, never other
 * processes.
 * <p>
 * Behaves as the Redis store does, on a {@link Clock} you can control (by default a
 * {@link #monotonicClock() monotonic} one):
 * <ul>
 * <li>A lease runs out when the clock reaches its end; expiry is evaluated on each
 * operation, so a test advances its clock instead of waiting.</li>
 * <li>Fencing tokens are {@code max(clock in microseconds, last + 1)}; the last token of
 * a key is kept for the fencing retention after its last acquisition, then forgotten like
 * the Redis fencing key.</li>
 * <li>Memory is bounded: a key nobody holds is forgotten once its fencing retention has
 * passed (expired entries are purged at most once per second of the clock, or once per
 * retention if shorter), so ids acquired once do not accumulate.</li>
 * <li>Replays answer as the first execution did: an acquire finding its own owner is
 * {@link Acquired} again with a greater token; the owners whose part in a lock ended
 * (released, handed over, withdrew) are remembered in its receipt, the last
 * {@value InMemoryReceipt#ENDED_OWNERS} for the fencing retention, so a replayed release,
 * or a replayed hand-over that released, answers {@link Released}, and a late copy of an
 * acquire of an ended owner is refused and changes nothing.</li>
 * <li>The release of a contended lock (one whose acquire was refused since it was
 * acquired) is announced to every open {@link #subscribe subscription}, synchronously on
 * the releasing thread, after the release and with no lock held. Releases of uncontended
 * locks are not announced, as in Redis. Subscriptions are active from the start until
 * closed.</li>
 * <li>Fair locks and grants as in Redis: a queue per key of the owners refused by
 * {@link #acquireFair} or by {@link #acquire(String, String, long, long)} with a wait,
 * each entry living for its wait time on the store's clock; the release of a contended
 * lock with a live queue entry grants the lock to the head, with the lease it asked for
 * and the next fencing token, and announces both.</li>
 * </ul>
 * Thread-safe; every operation is atomic per key. Never answers {@link Unknown}.
 */
public final class InMemoryLockStore implements LockStore {

	/**
	 * What {@link #grantLeaseMillis()} answers: the store grants. (A grant carries the
	 * lease its waiter asked for; in the Redis store this is the lease of a grant to a
	 * queue entry of an older client, which records none.)
	 */
	public static final Duration GRANT_LEASE = Duration.ofSeconds(2);

	/**
	 * The default fencing retention, that of the Redis store
	 * ({@code distributed-lock.fencing-retention}).
	 */
	public static final Duration DEFAULT_FENCING_RETENTION = Duration.ofMinutes(1);

	private final Clock clock;

	private final long fencingRetentionMillis;

	private final ConcurrentHashMap<String, InMemoryLockState> states = new ConcurrentHashMap<>();

	private final InMemoryReleaseAnnouncer announcer = new InMemoryReleaseAnnouncer();

	private final InMemoryFairQueues fairQueues = new InMemoryFairQueues();

	private final InMemoryGrants grants;

	private final InMemoryPurge purge;

	private final InMemorySharedHolds shared;

	private final InMemoryReleases releases;

	/**
	 * A store on the {@link #monotonicClock() monotonic clock} with the
	 * {@link #DEFAULT_FENCING_RETENTION default fencing retention}.
	 */
	public InMemoryLockStore() {
		this(monotonicClock());
	}

	/**
	 * The clock a store runs on unless a test brings its own: it starts at the wall-clock
	 * time and then moves on with {@link System#nanoTime()}, so setting the system clock
	 * neither ends a lease early nor stretches it. (The system clock would: set forward,
	 * it ends a lease in the store while its holder, which counts with {@code nanoTime},
	 * still holds it.)
	 * @return a new monotonic clock in UTC
	 */
	public static Clock monotonicClock() {
		return new MonotonicClock();
	}

	/**
	 * A store on {@code clock} with the {@link #DEFAULT_FENCING_RETENTION default fencing
	 * retention}.
	 * @param clock the clock leases run out on and fencing tokens come from
	 */
	public InMemoryLockStore(Clock clock) {
		this(clock, DEFAULT_FENCING_RETENTION);
	}

	/**
	 * A store on {@code clock}.
	 * @param clock the clock leases run out on and fencing tokens come from
	 * @param fencingRetention how long the last fencing token and the last releasing
	 * owner of a key are kept after its last acquisition, at least 1 ms
	 */
	public InMemoryLockStore(Clock clock, Duration fencingRetention) {
		if (clock == null) {
			throw new IllegalArgumentException("clock must not be null");
		}
		if (fencingRetention == null || fencingRetention.compareTo(Duration.ofMillis(1)) < 0) {
			throw new IllegalArgumentException(
					"fencingRetention must be at least 1ms, but was " + DurationText.of(fencingRetention));
		}
		this.clock = clock;
		this.fencingRetentionMillis = fencingRetention.toMillis();
		this.grants = new InMemoryGrants(this.fairQueues, this.fencingRetentionMillis);
		this.purge = new InMemoryPurge(this.fencingRetentionMillis, clock.millis());
		this.shared = new InMemorySharedHolds(this.grants, this.fairQueues, this.fencingRetentionMillis);
		this.releases = new InMemoryReleases(this.grants, this.shared, this.fairQueues, this.fencingRetentionMillis);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The lock id itself: the store has one namespace.
	 */
	@Override
	public String key(String lockId) {
		if (lockId == null || lockId.isEmpty()) {
			throw new IllegalArgumentException("lockId must not be null or empty, but was " + lockId);
		}
		return lockId;
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		return acquire(key, owner, leaseMillis, 0);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
		InMemoryArguments.check(key, owner, leaseMillis, waitMillis);
		Instant now = now();
		InMemoryReply<AcquireReply> reply = new InMemoryReply<>();
		this.states.compute(key,
				(k, state) -> this.grants.acquire(key, state, owner, leaseMillis, waitMillis, now, reply));
		return reply.get();
	}

	@Override
	public AcquireReply acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		InMemoryArguments.check(key, owner, leaseMillis, waitMillis);
		Instant now = now();
		InMemoryReply<AcquireReply> reply = new InMemoryReply<>();
		this.states.compute(key,
				(k, state) -> this.grants.acquireFair(key, state, owner, leaseMillis, waitMillis, now, reply));
		return announced(key, reply);
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
		InMemoryArguments.checkShared(key, owner, permits, leaseMillis);
		Instant now = now();
		InMemoryReply<AcquireReply> reply = new InMemoryReply<>();
		this.states.compute(key,
				(k, state) -> this.shared.acquire(key, state, owner, permits, leaseMillis, now, reply));
		return announced(key, reply);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * {@link #GRANT_LEASE}.
	 */
	@Override
	public long grantLeaseMillis() {
		return GRANT_LEASE.toMillis();
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		return handOver(key, owner, newOwner, leaseMillis, mayStayLocal, null);
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal,
			@Nullable String newOwnerQueuedAs) {
		InMemoryArguments.check(key, owner, leaseMillis);
		InMemoryArguments.checkOwner("newOwner", newOwner);
		Instant now = now();
		InMemoryReply<HandOverReply> reply = new InMemoryReply<>();
		this.states.compute(key, (k, state) -> this.grants.handOver(key, state, owner, newOwner, leaseMillis,
				mayStayLocal, newOwnerQueuedAs, now, reply));
		return announced(key, reply);
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		return release(key, owner, false);
	}

	@Override
	public ReleaseReply withdraw(String key, String owner) {
		return release(key, owner, true);
	}

	private ReleaseReply release(String key, String owner, boolean withdraw) {
		InMemoryArguments.checkKey(key);
		InMemoryArguments.checkOwner("owner", owner);
		Instant now = now();
		InMemoryReply<ReleaseReply> reply = new InMemoryReply<>();
		this.states.compute(key, (k, state) -> this.releases.release(key, state, owner, now, reply));
		if (withdraw) {
			reply.announce = false;
		}
		return announced(key, reply);
	}

	/** {@inheritDoc} Here on the calling thread: nothing in memory blocks. */
	@Override
	public AsyncLockStore async(Executor blockingCalls) {
		return AsyncLockStore.direct(this);
	}

	@Override
	public ExtendReply extend(String key, String owner, long leaseMillis) {
		InMemoryArguments.check(key, owner, leaseMillis);
		Instant now = now();
		InMemoryReply<ExtendReply> reply = new InMemoryReply<>();
		this.states.compute(key, (k, state) -> this.releases.extend(key, state, owner, leaseMillis, now, reply));
		return reply.get();
	}

	@Override
	public long remainingLeaseMillis(String key) {
		InMemoryArguments.checkKey(key);
		Instant now = now();
		InMemoryLockState state = this.states.get(key);
		return (holder(state, now) != null) ? InMemoryLockState.remainingMillis(state, now) : -1;
	}

	/**
	 * The owner token the lock of {@code key} is held for now, if any: what a test or a
	 * simulation checks a lock service's view against (a lock service never needs it).
	 * @param key the lock's key
	 * @return the owner token of the exclusive holder, or empty when the lock is free or
	 * held shared
	 */
	public Optional<String> holderOf(String key) {
		InMemoryArguments.checkKey(key);
		return Optional.ofNullable(holder(this.states.get(key), now())).filter(InMemorySharedHolds::isOwner);
	}

	/**
	 * The owner tokens of the shared holds (READ, permits) of {@code key} whose lease has
	 * not ended, for the same checks.
	 * @param key the lock's key
	 * @return the owners, empty when the key is not held shared
	 */
	public Set<String> sharedHoldersOf(String key) {
		InMemoryArguments.checkKey(key);
		Instant now = now();
		Set<String> owners = new TreeSet<>();
		this.states.computeIfPresent(key, (k, state) -> {
			owners.addAll(this.shared.owners(k, state, now));
			return state;
		});
		return owners;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Memory is always there: never fails.
	 */
	@Override
	public void verify() {
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The subscription is active at once; {@code listener} is called on the releasing
	 * thread, and an exception it throws is logged and does not reach the releasing
	 * caller.
	 */
	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("listener must not be null");
		}
		return this.announcer.subscribe(listener);
	}

	/**
	 * How many keys the store remembers (held, or within their fencing retention, or with
	 * a live fair queue).
	 */
	int keysRemembered() {
		return this.states.size() + this.fairQueues.size();
	}

	private Instant now() {
		Instant now = this.clock.instant();
		if (this.purge.runIfDue(now.toEpochMilli(), this.states, this.fairQueues)) {
			this.shared.purge(this.states, now);
		}
		return now;
	}

	private <T> T announced(String key, InMemoryReply<T> reply) {
		if (reply.grantedTo != null) {
			this.announcer.announceGrant(key, reply.grantedTo, reply.grantToken);
		}
		else if (reply.announce) {
			this.announcer.announce(key);
		}
		return reply.get();
	}

}
