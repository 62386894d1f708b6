package io.github.distlock.autoconfigure;

import io.github.distlock.config.EnableDistributedLock;
import io.github.distlock.LockService;
import io.github.distlock.autoconfigure.DistributedLockConfiguration.LockStoreAvailableCondition;
import io.github.distlock.autoconfigure.DistributedLockProperties.Store;
import io.github.distlock.context.LockEngineContextBinding;
import io.github.distlock.core.LockEngine;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Configuration of distributed locks, shared by the auto-configuration of every Spring
 * Boot line ({@code DistributedLockAutoConfiguration} in
 * {@code lock-spring-boot-autoconfigure} and {@code lock-spring-boot3-autoconfigure},
 * which differ only in the Boot classes they are ordered after): the {@link LockService}
 * on the store named by {@code distributed-lock.store} (one configuration per store:
 * {@link RedisLockStoreConfiguration}, {@link QuorumLockStoreConfiguration},
 * {@link InMemoryLockStoreConfiguration}), observed when an {@link ObservationRegistry}
 * bean exists, and the {@link io.github.distlock.DistributedLock @DistributedLock}
 * interception (proxy mode, unless the application chose a mode with
 * {@link EnableDistributedLock
 *
 * @EnableDistributedLock}). Backs off when the Redis store is chosen and Spring Data
 * Redis is absent.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@Conditional({ BootLineCheck.class, LockStoreAvailableCondition.class })
@EnableConfigurationProperties(DistributedLockProperties.class)
@Import({ RedisLockStoreConfiguration.class, QuorumLockStoreConfiguration.class, InMemoryLockStoreConfiguration.class,
		DistributedLockConfiguration.EnableDistributedLockConfiguration.class })
public class DistributedLockConfiguration {

	/**
	 * The lock services in the context's lifecycle, their losses published as
	 * {@link io.github.distlock.context.LockLostEvent}s.
	 * @return the binding of every lock engine bean
	 */
	@Bean
	static LockEngineContextBinding lockEngineContextBinding() {
		return new LockEngineContextBinding();
	}

	/**
	 * Observes the engine's acquisitions and holds when there is a registry. Without one
	 * (no Micrometer set up) the engine observes nothing and pays nothing.
	 */
	static <T extends LockEngine> T observed(T engine, ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquireObservationConvention> acquireConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		ObservationRegistry registry = observationRegistry.getIfUnique();
		if (registry != null) {
			engine.setObservationRegistry(registry, acquireConvention.getIfUnique(), holdConvention.getIfUnique());
		}
		return engine;
	}

	/**
	 * The chosen store's classes are present: Spring Data Redis for the Redis store (the
	 * default); nothing for the in-memory store.
	 */
	static final class LockStoreAvailableCondition extends AnyNestedCondition {

		LockStoreAvailableCondition() {
			super(ConfigurationPhase.PARSE_CONFIGURATION);
		}

		@ConditionalOnClass(name = "org.springframework.data.redis.core.StringRedisTemplate")
		static final class SpringDataRedisPresent {

		}

		@ConditionalOnLockStore(Store.IN_MEMORY)
		static final class InMemoryStore {

		}

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
