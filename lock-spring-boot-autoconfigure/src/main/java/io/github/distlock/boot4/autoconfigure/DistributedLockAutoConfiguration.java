package io.github.distlock.boot4.autoconfigure;

import io.github.distlock.autoconfigure.DistributedLockConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of distributed locks on Spring Boot 4:
 * {@link DistributedLockConfiguration} (the {@link io.github.distlock.LockService} on the
 * chosen store, observations and the
 * {@link io.github.distlock.DistributedLock @DistributedLock} interception), ordered
 * after Boot 4's Redis and observation auto-configurations, whose beans it uses.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" })
@Import(DistributedLockConfiguration.class)
public final class DistributedLockAutoConfiguration {

}
