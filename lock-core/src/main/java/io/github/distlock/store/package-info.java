/**
 * The store SPI: the few atomic operations the lock engine asks of whatever holds the
 * locks (one Redis, a Redis Cluster, a quorum of Redis masters, or this JVM's memory),
 * and the in-memory store.
 * <p>
 * The engine ({@code io.github.distlock.core}) owns everything else: reentrancy, local
 * queueing and hand-over, waiting, renewal, lease deadlines, loss signalling,
 * observation. A store keeps no per-thread state and never blocks a caller longer than
 * one round trip (plus its command timeout).
 */
@NullMarked
package io.github.distlock.store;

import org.jspecify.annotations.NullMarked;
