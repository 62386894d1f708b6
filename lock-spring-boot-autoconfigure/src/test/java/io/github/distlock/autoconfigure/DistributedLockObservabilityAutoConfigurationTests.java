package io.github.distlock.autoconfigure;

import io.github.distlock.actuate.DistributedLockHealthIndicator;
import io.github.distlock.actuate.LocksEndpoint;
import io.github.distlock.observation.RedisLockMetrics;
import io.github.distlock.redis.MaxmemoryPolicyCheck;
import io.github.distlock.redis.RedisLockService;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the metrics, endpoint and health auto-configurations apply, and that they cost nothing
 * when Micrometer or Actuator are absent. Nothing here talks to Redis.
 */
class DistributedLockObservabilityAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				DistributedLockAutoConfiguration.class, DistributedLockMetricsAutoConfiguration.class,
				LocksEndpointAutoConfiguration.class, DistributedLockHealthContributorAutoConfiguration.class));

	@Test
	void metricsWithAMeterRegistry() {
		this.contextRunner.withBean(SimpleMeterRegistry.class).run((context) -> {
			assertThat(context).hasSingleBean(RedisLockMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			context.getBean(RedisLockMetrics.class).bindTo(registry);
			assertThat(registry.find(RedisLockMetrics.LOCKS_HELD).gauge()).isNotNull();
		});
	}

	@Test
	void noMetricsWithoutAMeterRegistry() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(RedisLockService.class)
			.doesNotHaveBean(RedisLockMetrics.class));
	}

	@Test
	void noMetricsAndNoFailureWithoutMicrometerCore() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RedisLockService.class)
				.doesNotHaveBean(RedisLockMetrics.class));
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
			.withClassLoader(new FilteredClassLoader(ConditionalOnAvailableEndpoint.class, HealthIndicator.class))
			.withPropertyValues("management.endpoints.web.exposure.include=locks")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(RedisLockService.class)
				.doesNotHaveBean(LocksEndpoint.class)
				.doesNotHaveBean(DistributedLockHealthIndicator.class));
	}

	@Test
	void healthContributorNamedDistributedLock() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(DistributedLockHealthIndicator.class);
			assertThat(context.getBeanNamesForType(DistributedLockHealthIndicator.class))
				.containsExactly("distributedLockHealthIndicator");
		});
	}

	@Test
	void healthContributorCanBeDisabled() {
		this.contextRunner.withPropertyValues("management.health.distributed-lock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DistributedLockHealthIndicator.class));
	}

	@Test
	void nothingWithoutTheLockService() {
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("distributed-lock.enabled=false", "management.endpoints.web.exposure.include=locks")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(RedisLockMetrics.class)
				.doesNotHaveBean(LocksEndpoint.class)
				.doesNotHaveBean(DistributedLockHealthIndicator.class)
				.doesNotHaveBean(MaxmemoryPolicyCheck.class));
	}

	@Test
	void theMaxmemoryPolicyCheckIsRegistered() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(MaxmemoryPolicyCheck.class));
	}

}
