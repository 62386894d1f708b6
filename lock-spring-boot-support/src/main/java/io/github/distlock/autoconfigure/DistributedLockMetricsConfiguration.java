package io.github.distlock.autoconfigure;

import io.github.distlock.metrics.LockMetrics;
import io.github.distlock.LockInspection;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Configuration of the lock service's meters ({@link LockMetrics}), when Micrometer and a
 * {@link MeterRegistry} are present. The acquire and hold timers come from the
 * observations, which {@link DistributedLockConfiguration} sets up. Imported by each Boot
 * line's {@code DistributedLockMetricsAutoConfiguration}, ordered after that line's
 * metrics auto-configuration.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ LockInspection.class, MeterRegistry.class })
public class DistributedLockMetricsConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockMetrics lockMetrics(LockInspection lockService) {
		return new LockMetrics(lockService);
	}

}
