/**
 * The Redis implementation of {@link io.github.distlock.LockService}.
 */
@NullMarked
package io.github.distlock.redis;

import org.jspecify.annotations.NullMarked;
