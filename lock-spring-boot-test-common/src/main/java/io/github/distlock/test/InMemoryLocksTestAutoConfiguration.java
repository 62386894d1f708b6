package io.github.distlock.test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import io.github.distlock.LockService;
import io.github.distlock.autoconfigure.DistributedLockProperties;
import io.github.distlock.core.LockEngine;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.store.InMemoryLockStore;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The in-memory locks of {@link AutoConfigureInMemoryLocks @AutoConfigureInMemoryLocks}:
 * the {@link InMemoryLockStore} on a {@link TestLockClock}, the lock engine over it (its
 * operations recorded), and {@link TestLocks}. Applies before the
 * {@code DistributedLockAutoConfiguration} of the Boot line's auto-configuration module
 * (named, not linked: this module serves both lines), whose in-memory configuration then
 * backs off.
 */
@AutoConfiguration(beforeName = { "io.github.distlock.boot4.autoconfigure.DistributedLockAutoConfiguration",
		"io.github.distlock.boot3.autoconfigure.DistributedLockAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "distributed-lock.store", havingValue = "in-memory")
@EnableConfigurationProperties(DistributedLockProperties.class)
public final class InMemoryLocksTestAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	TestLockClock testLockClock() {
		// Whole milliseconds, as the store counts leases.
		return new TestLockClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
	}

	@Bean
	@ConditionalOnMissingBean
	InMemoryLockStore inMemoryLockStore(TestLockClock clock, DistributedLockProperties properties) {
		return new InMemoryLockStore(clock, properties.getFencingRetention());
	}

	@Bean
	@ConditionalOnMissingBean
	TestLocks testLocks(InMemoryLockStore store, TestLockClock clock) {
		return new TestLocks(store, clock);
	}

	@Bean
	@ConditionalOnMissingBean(LockService.class)
	LockEngine lockService(TestLocks testLocks, DistributedLockProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquireObservationConvention> acquireConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		LockEngine engine = new LockEngine(testLocks.store(), properties.getLeaseTime());
		ObservationRegistry registry = observationRegistry.getIfUnique();
		if (registry != null) {
			engine.setObservationRegistry(registry, acquireConvention.getIfUnique(), holdConvention.getIfUnique());
		}
		testLocks.register(engine);
		return engine;
	}

}
