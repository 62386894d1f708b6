package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.actuate.LocksEndpoint;
import io.github.distlock.HeldLockInfo;
import io.github.distlock.LockInspection;
import io.github.distlock.metrics.LockMetrics;
import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.RedisLockStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the metrics, endpoint and health auto-configurations apply, and that they cost
 * nothing when Micrometer or Actuator are absent. Nothing here talks to Redis.
 */
class DistributedLockObservabilityAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, LineUnderTest.LOCKS, LineUnderTest.LOCK_METRICS,
				LocksEndpointAutoConfiguration.class, LineUnderTest.LOCK_HEALTH));

	@Test
	void metricsWithAMeterRegistry() {
		this.contextRunner.withBean(SimpleMeterRegistry.class).run((context) -> {
			assertThat(context).hasSingleBean(LockMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			context.getBean(LockMetrics.class).bindTo(registry);
			assertThat(registry.find(LockMetrics.LOCKS_HELD).gauge()).isNotNull();
		});
	}

	@Test
	void noMetricsWithoutAMeterRegistry() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(RedisLockStore.class)
			.doesNotHaveBean(LockMetrics.class));
	}

	@Test
	void noMetricsAndNoFailureWithoutMicrometerCore() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RedisLockStore.class)
				.doesNotHaveBean(LockMetrics.class));
	}

	@Test
	void endpointWhenExposed() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=locks")
			.run((context) -> assertThat(context).hasSingleBean(LocksEndpoint.class));
	}

	@Test
	void noEndpointWhenNotExposed() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void noEndpointWhenDisabled() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=locks",
					"management.endpoint.locks.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void noEndpointAndNoHealthAndNoFailureWithoutActuator() {
		this.contextRunner
			.withClassLoader(
					new FilteredClassLoader(ConditionalOnAvailableEndpoint.class, LineUnderTest.HEALTH_INDICATOR))
			.withPropertyValues("management.endpoints.web.exposure.include=locks")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RedisLockStore.class)
				.doesNotHaveBean(LocksEndpoint.class)
				.doesNotHaveBean(LineUnderTest.LOCK_HEALTH_INDICATOR));
	}

	@Test
	void healthContributorNamedDistributedLock() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LineUnderTest.LOCK_HEALTH_INDICATOR);
			assertThat(context.getBeanNamesForType(LineUnderTest.LOCK_HEALTH_INDICATOR))
				.containsExactly("distributedLockHealthIndicator");
		});
	}

	@Test
	void healthContributorCanBeDisabled() {
		this.contextRunner.withPropertyValues("management.health.distributed-lock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LineUnderTest.LOCK_HEALTH_INDICATOR));
	}

	@Test
	void nothingWithoutTheLockService() {
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("distributed-lock.enabled=false", "management.endpoints.web.exposure.include=locks")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LockMetrics.class)
				.doesNotHaveBean(LocksEndpoint.class)
				.doesNotHaveBean(LineUnderTest.LOCK_HEALTH_INDICATOR)
				.doesNotHaveBean(MaxmemoryPolicyCheck.class));
	}

	@Test
	void theMaxmemoryPolicyCheckIsRegistered() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(MaxmemoryPolicyCheck.class));
	}

	@Test
	void aUsersOwnInspectableLockServiceGetsMetricsEndpointAndHealth() {
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withBean(InspectableLockService.class, InspectableLockService::new)
			.withPropertyValues("management.endpoints.web.exposure.include=locks")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(LockEngine.class);
				assertThat(context).hasSingleBean(LockMetrics.class)
					.hasSingleBean(LocksEndpoint.class)
					.hasSingleBean(LineUnderTest.LOCK_HEALTH_INDICATOR);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				context.getBean(LockMetrics.class).bindTo(registry);
				assertThat(registry.get(LockMetrics.LOCKS_LOST).functionCounter().count()).isEqualTo(7);
				assertThat(context.getBean(LocksEndpoint.class).locks().locks()).isEmpty();
			});
	}

	@Test
	void aUsersOwnLockServiceWithoutInspectionGetsNone() {
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withBean(LockService.class, PlainLockService::new)
			.withPropertyValues("management.endpoints.web.exposure.include=locks")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LockMetrics.class)
				.doesNotHaveBean(LocksEndpoint.class)
				.doesNotHaveBean(LineUnderTest.LOCK_HEALTH_INDICATOR));
	}

	static class PlainLockService implements LockService {

		@Override
		public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
			return Optional.empty();
		}

		@Override
		public boolean isLocked(String lockId) {
			return false;
		}

	}

	static class InspectableLockService extends PlainLockService implements LockInspection {

		@Override
		public List<HeldLockInfo> heldLocks() {
			return List.of();
		}

		@Override
		public Optional<Duration> remainingLease(String lockId) {
			return Optional.empty();
		}

		@Override
		public long locksLost() {
			return 7;
		}

		@Override
		public long renewalFailures() {
			return 0;
		}

		@Override
		public boolean isRenewalFailing() {
			return false;
		}

		@Override
		public void verifyStore() {
		}

	}

}
