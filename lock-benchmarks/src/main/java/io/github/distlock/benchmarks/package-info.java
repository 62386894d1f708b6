/**
 * A harness that measures distlock against Redisson, Spring Integration, a naive lock and
 * the raw two-round-trip floor, on Redis it starts itself: one {@code redis-server}, a
 * Redis Cluster of 3 masters and 3 replicas, or 5 independent servers for the quorum
 * locks ({@code --topology}). Not part of the published starter.
 */
@NullMarked
package io.github.distlock.benchmarks;

import org.jspecify.annotations.NullMarked;
