package io.github.distlock.autoconfigure;

import io.github.distlock.actuate.LocksEndpoint;
import io.github.distlock.LockInspection;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code locks} endpoint, when Actuator is present and the
 * endpoint is available (enabled and exposed, e.g.
 * {@code management.endpoints.web.exposure.include=locks}). The same on every Boot line:
 * each line's auto-configuration module lists it in its
 * {@code AutoConfiguration.imports}.
 */
@AutoConfiguration(afterName = { "io.github.distlock.boot4.autoconfigure.DistributedLockAutoConfiguration",
		"io.github.distlock.boot3.autoconfigure.DistributedLockAutoConfiguration" })
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnAvailableEndpoint(LocksEndpoint.class)
public final class LocksEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(LockInspection.class)
	LocksEndpoint locksEndpoint(LockInspection lockService) {
		return new LocksEndpoint(lockService);
	}

}
