package io.github.distlock.autoconfigure;

import io.github.distlock.observation.LockMetrics;
import io.github.distlock.core.LockInspection;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the lock service's meters ({@link LockMetrics}), when Micrometer
 * and a {@link MeterRegistry} are present. The acquire and hold timers come from the
 * observations, which {@link DistributedLockAutoConfiguration} sets up.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ LockInspection.class, MeterRegistry.class })
public final class DistributedLockMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockMetrics lockMetrics(LockInspection lockService) {
		return new LockMetrics(lockService);
	}

}
