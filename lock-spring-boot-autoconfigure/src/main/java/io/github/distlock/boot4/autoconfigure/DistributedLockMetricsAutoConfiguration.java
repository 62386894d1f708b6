package io.github.distlock.boot4.autoconfigure;

import io.github.distlock.autoconfigure.DistributedLockMetricsConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the lock service's meters on Spring Boot 4
 * ({@link DistributedLockMetricsConfiguration}), ordered after Boot 4's meter registry
 * auto-configurations.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@Import(DistributedLockMetricsConfiguration.class)
public final class DistributedLockMetricsAutoConfiguration {

}
