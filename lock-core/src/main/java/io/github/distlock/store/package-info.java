/**
 * The store SPI: the few atomic operations the lock engine asks of whatever holds the
 * locks (one Redis, a Redis Cluster, a quorum of Redis masters, or this JVM's memory),
 * and the in-memory store.
 * <p>
 * The engine ({@code io.github.distlock.core}) owns everything else: reentrancy, local
 * queueing and hand-over, waiting, renewal, lease deadlines, loss signalling,
 * observation. A store keeps no per-thread state and never blocks a caller longer than
 * one round trip (plus its command timeout).
 * <p>
 * <b>Failures.</b> When the outcome of an operation is not known (the store was
 * unreachable, timed out, or cannot write for now), the reply is {@link Unknown}: the
 * command may or may not have been applied. The caller may send it again with the same
 * owner token, and releases the token when it gives up; the store never undoes an
 * operation it answered {@code Unknown} to by itself (a retry could be applied before
 * such a clean-up and be undone behind its back). Any other failure (a misconfiguration,
 * a missing permission) is thrown.
 * <p>
 * <b>Shared holds.</b> A store that {@linkplain LockStore#supportsSharedLocks() supports
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
