package io.github.distlock.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Runs the application's locks in memory in a Spring test: sets
 * {@code distributed-lock.store=in-memory} (over any other value) and imports the
 * distlock auto-configuration with an {@link io.github.distlock.store.InMemoryLockStore}
 * on a {@link TestLockClock} and a {@link TestLocks} bean to assert on and to inject
 * faults with. The real engine and {@code @DistributedLock} interception run; only the
 * store is replaced, and no Redis is needed.
 * <p>
 * Works with {@code @SpringBootTest} and with test slices ({@code @WebMvcTest},
 * {@code @DataJpaTest}, ...), which then include the lock auto-configuration.
 * <p>
 * {@code docs/testing.md} shows it in a test.
 *
 * @see TestLocks
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureInMemoryLocks {

}
