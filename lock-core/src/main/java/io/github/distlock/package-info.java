/**
 * The distlock API: {@link io.github.distlock.DistributedLock @DistributedLock},
 * {@link io.github.distlock.LockService} and {@link io.github.distlock.LockHandle}.
 */
@NullMarked
package io.github.distlock;

import org.jspecify.annotations.NullMarked;
