/**
 * Testing kit for applications using distlock: in-memory locks on a test clock with
 * assertions and fault hooks ({@link io.github.distlock.test.AutoConfigureInMemoryLocks},
 * {@link io.github.distlock.test.TestLocks}), a local {@code redis-server} as Spring
 * Boot's Redis connection ({@link io.github.distlock.test.LocalRedisServer}), and the
 * distlock auto-configuration in test slices
 * ({@link io.github.distlock.test.AutoConfigureDistributedLock}).
 */
@NullMarked
package io.github.distlock.test;

import org.jspecify.annotations.NullMarked;
