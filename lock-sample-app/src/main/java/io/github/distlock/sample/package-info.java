/**
 * The oversold demo: an application that sells 100 apples to 200 concurrent buyers,
 * without a lock, with {@code @DistributedLock} and with a fencing token.
 */
@NullMarked
package io.github.distlock.sample;

import org.jspecify.annotations.NullMarked;
