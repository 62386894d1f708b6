/**
 * A harness that measures distlock against Redisson, Spring Integration, a naive lock and
 * the raw two-round-trip floor, on one {@code redis-server} it starts itself. Not part of
 * the published starter.
 */
@NullMarked
package io.github.distlock.benchmarks;

import org.jspecify.annotations.NullMarked;
