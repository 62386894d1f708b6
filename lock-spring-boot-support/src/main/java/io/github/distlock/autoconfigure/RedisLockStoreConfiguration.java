package io.github.distlock.autoconfigure;

import java.time.Duration;

import io.github.distlock.LockService;
import io.github.distlock.autoconfigure.DistributedLockProperties.Replication;
import io.github.distlock.autoconfigure.DistributedLockProperties.Store;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.core.LockEngine;
import io.github.distlock.core.ReactiveLockEngine;
import io.github.distlock.redis.RedisLockSettings;
import io.github.distlock.redis.RedisLockStore;
import io.github.distlock.support.DurationText;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The locks in Redis ({@code distributed-lock.store=redis}, the default): a
 * {@link LockEngine} over a {@link RedisLockStore} on Spring Boot's Redis connection
 * factory, and the startup check of Redis's {@code maxmemory-policy}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(StringRedisTemplate.class)
@ConditionalOnLockStore(Store.REDIS)
@ConditionalOnSingleCandidate(RedisConnectionFactory.class)
class RedisLockStoreConfiguration {

	/**
	 * The store gets a template of its own: a user's template may have transaction
	 * support enabled, which would queue the lock scripts inside MULTI and return no
	 * replies. Closing it closes the store's own connections (those of
	 * replica-acknowledged writes); the connection factory stays Boot's.
	 */
	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	RedisLockStore redisLockStore(RedisConnectionFactory connectionFactory, DistributedLockProperties properties) {
		return new RedisLockStore(new StringRedisTemplate(connectionFactory), settings(properties, connectionFactory));
	}

	@Bean
	@ConditionalOnMissingBean(LockService.class)
	LockEngine lockService(RedisLockStore store, DistributedLockProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquireObservationConvention> acquireConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		return DistributedLockConfiguration.observed(new LockEngine(store, properties.getLeaseTime()),
				observationRegistry, acquireConvention, holdConvention);
	}

	private static RedisLockSettings settings(DistributedLockProperties properties,
			RedisConnectionFactory connectionFactory) {
		return new RedisLockSettings(properties.getKeyPrefix(), properties.getLeaseTime(),
				properties.getFencingRetention())
			.withReplication(minReplicas(properties, connectionFactory), properties.getReplication().getTimeout())
			.withReplicatedRenewals(properties.getReplication().isRenewals());
	}

	/**
	 * {@code distributed-lock.replication.min-replicas}, checked together with what it
	 * needs: a timeout above 0 and shorter than the lease, and Lettuce.
	 */
	private static int minReplicas(DistributedLockProperties properties, RedisConnectionFactory connectionFactory) {
		Replication replication = properties.getReplication();
		int minReplicas = replication.getMinReplicas();
		if (minReplicas == 0) {
			return 0;
		}
		Duration timeout = replication.getTimeout();
		if (timeout.compareTo(Duration.ofMillis(1)) < 0) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.replication.timeout",
					DurationText.of(timeout),
					"It must be at least 1ms when distributed-lock.replication.min-replicas is " + minReplicas
							+ " (Redis's WAIT would block without end with 0).");
		}
		if (timeout.compareTo(properties.getLeaseTime()) >= 0) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.replication.timeout",
					DurationText.of(timeout),
					"It must be shorter than distributed-lock.lease-time (" + DurationText.of(properties.getLeaseTime())
							+ "): a lock acknowledged only after its lease ran out is no longer held.");
		}
		if (!(connectionFactory instanceof LettuceConnectionFactory)) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.replication.min-replicas",
					minReplicas,
					"It needs Spring Data Redis's LettuceConnectionFactory (WAIT runs on connections "
							+ "of the lock's own), but the connection factory is "
							+ connectionFactory.getClass().getName() + ".");
		}
		return minReplicas;
	}

	@Bean
	@ConditionalOnMissingBean
	MaxmemoryPolicyCheck maxmemoryPolicyCheck(RedisConnectionFactory connectionFactory) {
		return new MaxmemoryPolicyCheck(connectionFactory);
	}

	/**
	 * The locks for reactive code, when Reactor is on the class path: the same store, so
	 * the same Redis, scripts and settings as the {@code LockService}, sent through
	 * Lettuce's asynchronous API.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "reactor.core.publisher.Mono")
	static class ReactiveLockServiceConfiguration {

		@Bean
		@ConditionalOnMissingBean(ReactiveLockService.class)
		ReactiveLockEngine reactiveLockService(RedisLockStore store, DistributedLockProperties properties) {
			return new ReactiveLockEngine(store, properties.getLeaseTime());
		}

	}

}
