package io.github.distlock.store;

import java.util.List;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;

/**
 * Where the locks live: a handful of atomic, owner-checked operations, written once per
 * backend and held to the same contract by {@code LockStoreContractTests}.
 * <p>
 * <b>Keys.</b> The engine names a lock by the store's {@link #key(String) key} for its
 * lock id, computed once per lock and passed to every operation; release notifications
 * name the same key.
 * <p>
 * <b>Owners.</b> Every acquisition and hand-over brings a fresh, unguessable owner token
 * from the engine. Only the current owner token can hand over, release or extend a lock;
 * an operation with any other token changes nothing and answers {@link NotOwned}.
 * <p>
 * <b>Fencing tokens, replays and late copies</b>: see the
 * {@linkplain io.github.distlock.store package documentation}. An {@link Acquired} reply
 * may carry {@link Acquired#TOKEN_ON_READ}: the token is then issued on the holder's
 * first read, by {@link #issueFencingToken}. The store remembers the owners whose part in
 * a lock ended in the lock's <em>receipt</em>: a replayed release of such an owner
 * answers {@link Released}, an acquire of such an owner changes nothing and answers
 * {@link HeldByOther}. So a caller ends the use of an owner token with a release, and
 * never acquires with it again. Owner tokens never contain a line break.
 * <p>
 * <b>Failures</b> ({@link Unknown}): see the package documentation.
 * <p>
 * <b>Replication</b> (a store waiting for replicas, answering {@link NotReplicated}): see
 * the {@linkplain io.github.distlock.store package documentation}.
 * <p>
 * <b>Fair locks and grants</b> (a store that {@linkplain #supportsFairLocks() supports
 * fair locks} or {@linkplain #grantLeaseMillis() grants}): see the
 * {@linkplain io.github.distlock.store package documentation}.
 * <p>
 * <b>Shared holds</b>: see {@link #acquireShared} and the package documentation.
 */
public interface LockStore {

	/**
	 * The store's name of the lock {@code lockId}, passed to every other operation. Pure:
	 * the same id always gives the same key, and different ids give different keys.
	 * @param lockId the lock id (any non-empty text)
	 * @return the key
	 */
	String key(String lockId);

	/**
	 * Acquires the lock for {@code owner} if nobody holds it, atomically.
	 * <p>
	 * When the lock is held by another owner, the store remembers that somebody is
	 * waiting (so that the release of this lock is announced to {@link ReleaseListener}s)
	 * and answers how long the holder's lease still runs. Finding the lock held by
	 * {@code owner} (a replay, or a lock granted to it, see
	 * {@link #acquire(String, String, long, long)}) answers {@link Acquired} again, with
	 * a new, greater fencing token and a lease of at least {@code leaseMillis}: a longer
	 * one (extended since) is kept, so a late copy never cuts a holder's lease short.
	 * <p>
	 * After {@link HeldByOther} the caller's next attempt brings a fresh owner token: a
	 * store may release a refused token (the quorum store does, on the nodes that granted
	 * it to a split vote), and a released token is never acquired with again.
	 * @param key the lock's key
	 * @param owner a fresh owner token for this acquisition
	 * @param leaseMillis the lease, at least 1
	 * @return {@link Acquired}, {@link HeldByOther}, {@link NotReplicated} (for a store
	 * waiting for replicas) or {@link Unknown}
	 */
	AcquireReply acquire(String key, String owner, long leaseMillis);

	/**
	 * Issues the fencing token of the lock for {@code owner} if it holds it
	 * (exclusively), atomically: strictly greater than every token the store handed out
	 * before for the key, the tokens of {@link Acquired} replies and grants included. For
	 * a store whose {@link Acquired} replies may carry {@link Acquired#TOKEN_ON_READ};
	 * holds of a key are disjoint in time, so tokens issued only to current owners still
	 * increase from one holder to the next. Each call issues a new token (the engine asks
	 * once per hold). A replay issues another, greater one.
	 * @param key the lock's key
	 * @param owner the owner token
	 * @return {@link Acquired} with the token, {@link NotOwned} (the lease ran out, or
	 * another owner holds the lock) or {@link Unknown}
	 * @throws UnsupportedOperationException by default: a store whose replies always
	 * carry a token never needs it
	 */
	default FencingTokenReply issueFencingToken(String key, String owner) {
		throw new UnsupportedOperationException(getClass().getName() + " issues fencing tokens with every Acquired");
	}

	/**
	 * {@link #acquire(String, String, long)} for an owner that waits on when refused
	 * (default, unfair mode): a free lock is taken at once, whoever is queued; a lock
	 * held by another owner is refused as there, and a store that
	 * {@linkplain #grantLeaseMillis() grants} then also queues {@code owner} in the
	 * lock's fair queue for {@code waitMillis} from now with {@code leaseMillis} (or lets
	 * it keep its place), so that the holder's release grants it the lock, with that
	 * lease, as it would a fair waiter. The same owner token is sent for every attempt of
	 * one acquisition, so that a grant to it can be held or claimed; an acquisition that
	 * ends without the lock withdraws with an owner-checked {@link #release}, which also
	 * passes on a grant it got meanwhile.
	 * <p>
	 * The default ignores {@code waitMillis}: a store that does not grant queues nobody.
	 * @param key the lock's key
	 * @param owner the owner token of this acquisition, the same for all its attempts
	 * @param leaseMillis the lease, at least 1
	 * @param waitMillis how long the queue entry lives from now, 0 for none
	 * @return as {@link #acquire(String, String, long)}
	 */
	default AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
		return acquire(key, owner, leaseMillis);
	}

	/**
	 * Acquires the lock for {@code owner} first come, first served: only if nobody holds
	 * it and no live queue entry is ahead of {@code owner}, or if it was granted to
	 * {@code owner} (then the lease is reset to {@code leaseMillis}). Otherwise
	 * {@code owner} is queued at the end (or keeps its place), with {@code leaseMillis},
	 * for {@code waitMillis} from now, the lock is flagged contended, and the reply is
	 * {@link HeldByOther}. A lock found free with a live entry ahead is granted to the
	 * head of the queue on the way. The same owner token is sent for every attempt of one
	 * acquisition, so that a grant to it can be claimed; a replay answers
	 * {@link Acquired} again with a new, greater fencing token.
	 * @param key the lock's key
	 * @param owner the owner token of this acquisition, the same for all its attempts
	 * @param leaseMillis the lease, at least 1
	 * @param waitMillis how long the queue entry lives from now, 0 for none (try once)
	 * @return {@link Acquired}, {@link HeldByOther} or {@link Unknown}
	 * @throws UnsupportedOperationException when the store does not
	 * {@linkplain #supportsFairLocks() support fair locks}
	 */
	default AcquireReply acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		throw new UnsupportedOperationException(getClass().getName() + " does not support fair locks");
	}

	/**
	 * Whether {@link #acquireFair} is supported, and releases grant the lock to the head
	 * of its queue.
	 * @return {@code false} unless the store overrides it
	 */
	default boolean supportsFairLocks() {
		return false;
	}

	/**
	 * Whether the store grants: more than 0 when a release grants the lock to the head of
	 * its queue (with the lease that head's entry records). A store answering more than 0
	 * grants to waiters of the default mode too: it implements
	 * {@link #acquire(String, String, long, long)} and
	 * {@link #handOver(String, String, String, long, boolean, String)}. The value itself
	 * is the lease of a grant to a queue entry that records no lease of its own, written
	 * by an older client (the Redis store: 2 s).
	 * @return more than 0 when the store grants, 0 when it never does (then waiters of
	 * the default mode are not queued, and every granted fair waiter claims its grant
	 * before it counts as held)
	 */
	default long grantLeaseMillis() {
		return 0;
	}

	/**
	 * Passes the lock from {@code owner} to {@code newOwner} with a new lease and fencing
	 * token, atomically and without freeing it in between, so that no other instance can
	 * take it.
	 * <p>
	 * When the lock is wanted elsewhere (an acquire was refused since the last
	 * acquisition) and {@code mayStayLocal} is {@code false}, the lock is released
	 * instead and its release announced, so that waiters elsewhere get their turn. A
	 * replay of a hand-over that handed over answers {@link Acquired} (with a new token);
	 * a replay of one that released answers {@link Released}.
	 * @param key the lock's key
	 * @param owner the current owner token
	 * @param newOwner a fresh owner token for the new holder
	 * @param leaseMillis the new holder's lease, at least 1
	 * @param mayStayLocal whether the lock may be handed over although wanted elsewhere
	 * @return {@link Acquired} (for {@code newOwner}), {@link Released},
	 * {@link NotOwned}, {@link NotReplicated} (the lock was handed over, then freed:
	 * neither owner holds it) or {@link Unknown}
	 */
	HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal);

	/**
	 * {@link #handOver(String, String, String, long, boolean)} to a waiter queued in the
	 * lock's fair queue as {@code newOwnerQueuedAs} (see
	 * {@link #acquire(String, String, long, long)}): a hand-over also withdraws that
	 * queue entry, so that no later release grants the lock to an owner nobody waits as
	 * any more. Queued waiters of other instances do not keep a lock that
	 * {@code mayStayLocal} from being handed over.
	 * <p>
	 * The default ignores {@code newOwnerQueuedAs}: a store that does not grant queues
	 * nobody.
	 * @param key the lock's key
	 * @param owner the current owner token
	 * @param newOwner a fresh owner token for the new holder
	 * @param leaseMillis the new holder's lease, at least 1
	 * @param mayStayLocal whether the lock may be handed over although wanted elsewhere
	 * @param newOwnerQueuedAs the owner token the new holder is queued under, or
	 * {@code null}
	 * @return as {@link #handOver(String, String, String, long, boolean)}
	 */
	default HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal,
			@Nullable String newOwnerQueuedAs) {
		return handOver(key, owner, newOwner, leaseMillis, mayStayLocal);
	}

	/**
	 * Releases the lock if {@code owner} holds it, atomically, and announces the release
	 * when somebody was waiting. A replay of a release that released answers
	 * {@link Released}.
	 * @param key the lock's key
	 * @param owner the owner token
	 * @return {@link Released}, {@link NotOwned} (expired, or held by another owner) or
	 * {@link Unknown}
	 */
	ReleaseReply release(String key, String owner);

	/**
	 * {@link #release} without the announcement: for an owner that never held the lock as
	 * a whole and gives it up, such as a quorum node's share of an acquisition that a
	 * majority refused. Waiters its key refused on this store are refused by the lock's
	 * holder too, or re-check by themselves; waking them would make them race for the
	 * same share (two waiters of a quorum woke each other for as long as the holder held
	 * the lock). The owner's end is noted as a release notes it, so a late copy of its
	 * acquire changes nothing. The default releases, announcement included: only a
	 * needless wake-up.
	 * @param key the lock's key
	 * @param owner the owner token
	 * @return as {@link #release}
	 */
	default ReleaseReply withdraw(String key, String owner) {
		return release(key, owner);
	}

	/**
	 * Resets the lease of the lock to {@code leaseMillis} from now if {@code owner} holds
	 * it, atomically. Used for renewal, {@code extend} and to keep a lock for its minimum
	 * hold time. Idempotent, so a replay answers as the first execution did.
	 * @param key the lock's key
	 * @param owner the owner token
	 * @param leaseMillis the new lease, at least 1
	 * @return {@link Extended}, {@link NotOwned} or {@link Unknown}
	 */
	ExtendReply extend(String key, String owner, long leaseMillis);

	/**
	 * {@link #extend} of many locks in few round trips (the renewals due at once), each
	 * owner-checked and answered on its own, in order; {@link Unknown} for each reset of
	 * a batch that failed. The default extends them one by one.
	 * @param resets the lease resets
	 * @return a reply per reset, in order
	 */
	default List<ExtendReply> extendAll(List<LeaseReset> resets) {
		return resets.stream().map((reset) -> extend(reset.key(), reset.owner(), reset.leaseMillis())).toList();
	}

	/**
	 * How long the current holder's lease still runs, whoever holds it.
	 * @param key the lock's key
	 * @return the remaining lease in milliseconds (at least 0), -1 if nobody holds the
	 * lock, or {@link Long#MAX_VALUE} if it is held without a lease (a key the store did
	 * not write, for example one set by hand in Redis)
	 * @throws RuntimeException when the store cannot be asked
	 */
	long remainingLeaseMillis(String key);

	/**
	 * Runs the owner-checked release on a lock no owner token can match: changes nothing,
	 * but fails when the store cannot be reached or refuses to run the lock operations
	 * (for example a Redis ACL without the scripts or the key prefix).
	 * @throws RuntimeException when the lock operations cannot run
	 */
	void verify();

	/**
	 * Starts delivering release announcements to {@code listener}. Called once per lock
	 * service; the returned notifications are closed when the service stops. Several lock
	 * services may share one store (or one Redis), so any number of subscriptions may be
	 * open at once, and each one hears every announced release of the locks it was asked
	 * to watch ({@link ReleaseNotifications#ensureActive}; a store announcing on one
	 * channel delivers every release to every subscription).
	 * @param listener called with the key of a released lock that somebody was waiting
	 * for; must be quick and must not throw (it may run on the store's I/O thread)
	 * @return the subscription
	 */
	ReleaseNotifications subscribe(ReleaseListener listener);

	/**
	 * This store's operations for callers that must not block ({@link AsyncLockStore}):
	 * by default its blocking methods, run on {@code blockingCalls}.
	 * @param blockingCalls where a blocking call may run
	 * @return the operations
	 */
	default AsyncLockStore async(Executor blockingCalls) {
		return AsyncLockStore.offloading(this, blockingCalls);
	}

	/**
	 * @return whether {@link #acquireShared} is supported: {@code false} by default
	 */
	default boolean supportsSharedLocks() {
		return false;
	}

	/**
	 * Adds a shared hold of {@code owner} to the key, atomically: a READ hold
	 * ({@code permits} 0: any number of them) or a permit of a semaphore of
	 * {@code permits}. Refused ({@link HeldByOther}, flagging the key contended, so that
	 * the release that frees the way is announced) while the key is held exclusively,
	 * while a live entry of its queue waits, or when all permits are held. A hold whose
	 * lease ran out does not count. A replay (the owner holds) answers {@link Acquired}
	 * again, with at least the lease asked for; an owner whose part ended is refused and
	 * changes nothing. Every {@link Acquired} carries the next fencing token of the key.
	 * @param key the lock's key
	 * @param owner a fresh owner token for this acquisition
	 * @param permits 0 for a READ hold, or the number of permits (at least 2)
	 * @param leaseMillis the lease, at least 1
	 * @return {@link Acquired}, {@link HeldByOther} or {@link Unknown}
	 * @throws SharedLockConflictException when the key is held shared with another number
	 * of permits (or READ against permits): nothing changed
	 * @throws UnsupportedOperationException when the store does not
	 * {@linkplain #supportsSharedLocks() support shared locks}
	 */
	default AcquireReply acquireShared(String key, String owner, int permits, long leaseMillis) {
		throw new UnsupportedOperationException(getClass().getName() + " does not support shared locks");
	}

}
