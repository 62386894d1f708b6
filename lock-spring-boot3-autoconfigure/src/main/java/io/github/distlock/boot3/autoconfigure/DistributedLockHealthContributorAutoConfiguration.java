package io.github.distlock.boot3.autoconfigure;

import io.github.distlock.boot3.actuate.DistributedLockHealthIndicator;
import io.github.distlock.LockInspection;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code distributedLock} health contributor, when Spring
 * Boot's health support is present;
 * {@code management.health.distributed-lock.enabled=false} turns it off.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(LockInspection.class)
@ConditionalOnEnabledHealthIndicator("distributed-lock")
public final class DistributedLockHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "distributedLockHealthIndicator")
	DistributedLockHealthIndicator distributedLockHealthIndicator(LockInspection lockService) {
		return new DistributedLockHealthIndicator(lockService);
	}

}
