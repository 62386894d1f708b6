package io.github.distlock.autoconfigure;

import io.github.distlock.EnableDistributedLock;
import io.github.distlock.LockService;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.redis.MaxmemoryPolicyCheck;
import io.github.distlock.redis.RedisLockService;
import io.github.distlock.redis.RedisLockSettings;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Auto-configuration of distributed locks on Redis: the {@link LockService}, observed when an
 * {@link ObservationRegistry} bean exists, the
 * {@link io.github.distlock.DistributedLock @DistributedLock} interception (proxy mode, unless the
 * application chose a mode with {@link EnableDistributedLock @EnableDistributedLock}), and the
 * startup check of Redis's {@code maxmemory-policy}.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" })
@ConditionalOnClass(StringRedisTemplate.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import(DistributedLockAutoConfiguration.EnableDistributedLockConfiguration.class)
public final class DistributedLockAutoConfiguration {

	/**
	 * The lock gets a template of its own: a user's template may have transaction support
	 * enabled, which would queue the lock scripts inside MULTI and return no replies.
	 */
	@Bean
	@ConditionalOnMissingBean(LockService.class)
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	RedisLockService lockService(RedisConnectionFactory connectionFactory, DistributedLockProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquireObservationConvention> acquireConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		StringRedisTemplate template = new StringRedisTemplate(connectionFactory);
		RedisLockSettings settings = new RedisLockSettings(properties.getKeyPrefix(), properties.getLeaseTime(),
				properties.getFencingRetention());
		RedisLockService lockService = new RedisLockService(template, settings);
		// Without a registry (no Micrometer set up) the service observes nothing and pays nothing.
		ObservationRegistry registry = observationRegistry.getIfUnique();
		if (registry != null) {
			lockService.setObservationRegistry(registry, acquireConvention.getIfUnique(), holdConvention.getIfUnique());
		}
		return lockService;
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	MaxmemoryPolicyCheck maxmemoryPolicyCheck(RedisConnectionFactory connectionFactory) {
		return new MaxmemoryPolicyCheck(connectionFactory);
	}

	/**
	 * The proxy mode, unless the application chose a mode with its own
	 * {@link EnableDistributedLock @EnableDistributedLock}.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(AbstractDistributedLockConfiguration.class)
	@EnableDistributedLock
	static class EnableDistributedLockConfiguration {

	}

}
