/**
 * The store SPI: the few atomic operations the lock engine asks of whatever holds the
 * locks (one Redis, a Redis Cluster, a quorum of Redis masters, or this JVM's memory),
 * and the in-memory store.
 * <p>
 * The engine ({@code io.github.distlock.core}) owns everything else: reentrancy, local
 * queueing and hand-over, waiting, renewal, lease deadlines, loss signalling,
 * observation. A store keeps no per-thread state and never blocks a caller longer than
 * one round trip (plus its command timeout).
 * <h2>Fencing tokens</h2> Every fencing token a store hands out for a key, in an
 * {@link Acquired} reply, a grant ({@link ReleaseListener#granted}) or by
 * {@link LockStore#issueFencingToken}, is strictly greater than every token it handed out
 * before for the same key, also after the lock expired, and also after the store forgot
 * the key (a store derives tokens from a clock that moves on faster than acquisitions
 * happen, as the Redis store does with the server's clock).
 * <p>
 * A store may leave the token out of an {@link Acquired} reply
 * ({@link Acquired#TOKEN_ON_READ}): the engine then asks
 * {@link LockStore#issueFencingToken} for it the first time the holder reads it, and
 * caches it for the hold. This keeps the fencing work (the Redis store: {@code TIME} and
 * the {@code GET}/{@code SET} of the fencing key) off the path of every caller that never
 * reads its token. It is safe because holds of a key are disjoint in time and the issue
 * is owner-checked: a token is issued only during its owner's hold, so the tokens of
 * later holders, issued during their holds, are greater. The token is issued once per
 * hold, so it may be issued late in the hold, but never after it ended: a holder whose
 * lock is gone gets no token ({@link NotOwned}). Contended paths (grants, hand-overs,
 * claims and replays, fair and shared acquisitions) still issue eagerly; so do stores
 * that have no cheaper way (in memory, quorum).
 * <h2>Replays and late copies</h2> A client may send a command again when it did not see
 * the reply (Lettuce re-sends unanswered commands after a reconnect), and a command may
 * be applied after a later one sent on another connection. Each operation says what its
 * replay must answer: always what the first execution answered as far as the caller can
 * tell, so that a replay never leaves a lock nobody knows it holds, and never reports a
 * loss that did not happen. The store remembers the owners whose part in a lock ended —
 * that released it, handed it over, or were released while not holding it (a waiter
 * withdrawing, a clean-up) — in the lock's <em>receipt</em>: at least the last 16 of
 * them, for the fencing retention. A replayed release of such an owner answers
 * {@link Released}; an acquire of such an owner (a late copy of an attempt of an
 * acquisition that ended) changes nothing and answers {@link HeldByOther}. So a caller
 * ends the use of an owner token with a release, and never acquires with it again. Owner
 * tokens never contain a line break.
 * <h2>Replication</h2> A store that copies its writes to replicas may be asked to count a
 * lock only once enough replicas acknowledged it, so that a failover to one of them keeps
 * it. Such a store answers {@link NotReplicated} to an acquire or hand-over whose write
 * was not acknowledged in time, after removing that write again (owner-checked): the lock
 * is not held, and the engine fails the acquisition with the reason instead of waiting on
 * (a replica that does not answer is an infrastructure failure, like a store that cannot
 * be reached). Releases never wait for replicas. A store asked to wait for them on lease
 * extensions too answers {@link Unknown} to one they did not acknowledge, so that the
 * holder does not count on a lease a failover could lose.
 * <h2>Fair locks and grants</h2> A store that {@linkplain LockStore#supportsFairLocks()
 * supports fair locks} keeps, per lock, a queue of the owners that
 * {@linkplain LockStore#acquireFair asked fairly} and were refused, in arrival order,
 * each entry living no longer than the wait time its owner gave. A fair acquire never
 * takes a lock past a queue with a live entry ahead of it. Each queue entry records the
 * lease its owner asked for. A release (or a hand-over that releases) of a contended lock
 * whose queue has a live entry does not free the lock: it <em>grants</em> it to the head
 * of the queue, setting that owner as holder with the lease its entry records, and
 * announces the grant with the fencing token it computed for that owner, by the same rule
 * as every acquisition (greater than every token handed out before for the key):
 * {@link ReleaseListener#granted(String, String, long)}. The granted owner holds the lock
 * from then on, as long as one that acquired it itself; it may also claim it with its
 * next acquire (a waiter that missed the announcement does), which resets the lease and
 * answers {@link Acquired} with a still greater token. A granted owner that gave up
 * passes the lock on with its withdrawal; one that died keeps it for its lease, as a
 * holder that dies does. A release by an owner that does not hold the lock withdraws that
 * owner from the queue; a release by the holder withdraws its own entry too, before the
 * grant (an acquisition whose last attempt, made with no wait left, took the free lock
 * still has the entry of its earlier attempts), so a release never grants the lock back
 * to the owner letting it go. A store that grants ({@link LockStore#grantLeaseMillis()}
 * &gt; 0) queues waiters of the default mode in the same queue
 * ({@link LockStore#acquire(String, String, long, long)}), so that a release hands the
 * lock to another instance's waiter as a grant too; unlike fair ones, they pass nobody to
 * a free lock.
 * <h2>Failures</h2> When the outcome of an operation is not known (the store was
 * unreachable, timed out, or cannot write for now), the reply is {@link Unknown}: the
 * command may or may not have been applied. The caller may send it again with the same
 * owner token, and releases the token when it gives up; the store never undoes an
 * operation it answered {@code Unknown} to by itself (a retry could be applied before
 * such a clean-up and be undone behind its back). Any other failure (a misconfiguration,
 * a missing permission) is thrown.
 * <h2>Shared holds</h2> A store that {@linkplain LockStore#supportsSharedLocks() supports
 * them} admits READ holds and permits of a semaphore ({@link LockStore#acquireShared}) on
 * the same keys: a key held shared counts as held by another owner for every exclusive
 * operation (its remaining lease is that of its latest hold), and
 * {@link LockStore#release}, {@link LockStore#withdraw} and {@link LockStore#extend} act
 * on one shared hold of their owner as on a lock, replays and receipts included. The
 * release of the last hold frees the key as a holder's release does (granting it to the
 * head of the queue). Exclusive waiters queue as usual; shared ones never queue, and are
 * refused while a live queue entry waits, so that writers are not starved.
 */
@NullMarked
package io.github.distlock.store;

import org.jspecify.annotations.NullMarked;
