package io.github.distlock.boot3.autoconfigure;

import io.github.distlock.autoconfigure.DistributedLockMetricsConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the lock service's meters on Spring Boot 3.5
 * ({@link DistributedLockMetricsConfiguration}), ordered after Boot 3.5's meter registry
 * auto-configurations.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class,
		afterName = { "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
				"org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration" })
@Import(DistributedLockMetricsConfiguration.class)
public final class DistributedLockMetricsAutoConfiguration {

}
