package io.github.distlock.autoconfigure;

import io.github.distlock.interceptor.LockKeyEvaluator;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

/**
 * What the configurations of both {@link io.github.distlock.config.EnableDistributedLock
 * advice modes} share. Its presence tells the auto-configuration that the mode was chosen
 * explicitly.
 * <p>
 * Subclasses define a {@link io.github.distlock.interceptor.LockOperationSource} for
 * their mode and what intercepts the calls; like this one, they should be imported
 * through {@link io.github.distlock.config.EnableDistributedLock @EnableDistributedLock},
 * not directly.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
public abstract class AbstractDistributedLockConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	protected static LockKeyEvaluator lockKeyEvaluator() {
		return new LockKeyEvaluator();
	}

}
