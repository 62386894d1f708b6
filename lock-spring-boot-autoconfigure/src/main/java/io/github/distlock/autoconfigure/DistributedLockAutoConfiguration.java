package io.github.distlock.autoconfigure;

import io.github.distlock.LockService;
import io.github.distlock.redis.RedisLockService;
import io.github.distlock.redis.RedisLockSettings;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Auto-configuration of distributed locks on Redis: the {@link LockService} and the
 * {@link io.github.distlock.DistributedLock @DistributedLock} interception.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass(StringRedisTemplate.class)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import(DistributedLockInterceptionConfiguration.class)
public final class DistributedLockAutoConfiguration {

	/**
	 * The lock gets a template of its own: a user's template may have transaction support
	 * enabled, which would queue the lock scripts inside MULTI and return no replies.
	 */
	@Bean
	@ConditionalOnMissingBean(LockService.class)
	@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
	RedisLockService lockService(RedisConnectionFactory connectionFactory, DistributedLockProperties properties) {
		StringRedisTemplate template = new StringRedisTemplate(connectionFactory);
		RedisLockSettings settings = new RedisLockSettings(properties.getKeyPrefix(), properties.getLeaseTime(),
				properties.getFencingRetention());
		return new RedisLockService(template, settings);
	}

}
