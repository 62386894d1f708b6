package io.github.distlock.autoconfigure;

import io.github.distlock.LockService;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.autoconfigure.DistributedLockProperties.Store;
import io.github.distlock.core.LockEngine;
import io.github.distlock.core.ReactiveLockEngine;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.store.InMemoryLockStore;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The locks in this JVM's memory ({@code distributed-lock.store=in-memory}): a
 * {@link LockEngine} over an {@link InMemoryLockStore}. An application's own
 * {@link InMemoryLockStore} bean (on a clock its tests control, say) replaces the default
 * one. Needs no Redis, not even Spring Data Redis on the classpath. Warns at startup that
 * the locks do not exclude other processes.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnLockStore(Store.IN_MEMORY)
class InMemoryLockStoreConfiguration {

	private static final Log logger = LogFactory.getLog(InMemoryLockStoreConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	InMemoryLockStore inMemoryLockStore(DistributedLockProperties properties) {
		return new InMemoryLockStore(InMemoryLockStore.monotonicClock(), properties.getFencingRetention());
	}

	@Bean
	@ConditionalOnMissingBean(LockService.class)
	LockEngine lockService(InMemoryLockStore store, DistributedLockProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquireObservationConvention> acquireConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		logger.warn("distributed-lock.store is 'in-memory': locks are held in this JVM's memory and exclude"
				+ " only the threads of this application, never other processes or instances of it;"
				+ " use 'redis' when more than one instance runs");
		return DistributedLockConfiguration.observed(new LockEngine(store, properties.getLeaseTime()),
				observationRegistry, acquireConvention, holdConvention);
	}

	/**
	 * The locks for reactive code, when Reactor is on the class path, on the same store.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "reactor.core.publisher.Mono")
	static class ReactiveLockServiceConfiguration {

		@Bean
		@ConditionalOnMissingBean(ReactiveLockService.class)
		ReactiveLockEngine reactiveLockService(InMemoryLockStore store, DistributedLockProperties properties) {
			return new ReactiveLockEngine(store, properties.getLeaseTime());
		}

	}

}
