package io.github.distlock.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Includes distlock's auto-configuration in a test slice, which otherwise leaves it out:
 * the {@link io.github.distlock.LockService}, the {@code @DistributedLock} interception,
 * and (when their classes are present) the metrics, the {@code locks} endpoint and the
 * health contributor. The store is the one configured ({@code distributed-lock.store},
 * Redis by default), so with {@code @DataRedisTest} the locks are in the slice's Redis;
 * for in-memory locks use {@link AutoConfigureInMemoryLocks @AutoConfigureInMemoryLocks}
 * instead.
 * <p>
 * For example {@code @DataRedisTest} with {@code @AutoConfigureDistributedLock} and
 * {@code @LocalRedisServer}: the slice's Redis repositories and templates, the locks in
 * the same Redis, and a server of the test's own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureDistributedLock {

}
