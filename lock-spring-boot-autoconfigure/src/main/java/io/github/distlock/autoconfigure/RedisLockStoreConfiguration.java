package io.github.distlock.autoconfigure;

import io.github.distlock.LockService;
import io.github.distlock.autoconfigure.DistributedLockProperties.Store;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.redis.MaxmemoryPolicyCheck;
import io.github.distlock.redis.RedisLockService;
import io.github.distlock.redis.RedisLockSettings;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The locks in Redis ({@code distributed-lock.store=redis}, the default): a
 * {@link RedisLockService} on Spring Boot's Redis connection factory, and the startup
 * check of Redis's {@code maxmemory-policy}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(StringRedisTemplate.class)
@ConditionalOnLockStore(Store.REDIS)
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
class RedisLockStoreConfiguration {

	/**
	 * The lock gets a template of its own: a user's template may have transaction support
	 * enabled, which would queue the lock scripts inside MULTI and return no replies.
	 */
	@Bean
	@ConditionalOnMissingBean(LockService.class)
	RedisLockService lockService(RedisConnectionFactory connectionFactory, DistributedLockProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquireObservationConvention> acquireConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		StringRedisTemplate template = new StringRedisTemplate(connectionFactory);
		RedisLockSettings settings = new RedisLockSettings(properties.getKeyPrefix(), properties.getLeaseTime(),
				properties.getFencingRetention());
		return DistributedLockAutoConfiguration.observed(new RedisLockService(template, settings), observationRegistry,
				acquireConvention, holdConvention);
	}

	@Bean
	@ConditionalOnMissingBean
	MaxmemoryPolicyCheck maxmemoryPolicyCheck(RedisConnectionFactory connectionFactory) {
		return new MaxmemoryPolicyCheck(connectionFactory);
	}

}
