package io.github.distlock.autoconfigure;

import java.time.Duration;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.actuate.LocksEndpoint;
import io.github.distlock.core.LockEngine;
import io.github.distlock.core.ReactiveLockEngine;
import io.github.distlock.interceptor.DistributedLockAdvisor;
import io.github.distlock.metrics.LockMetrics;
import io.github.distlock.redis.RedisLockStore;
import io.github.distlock.store.InMemoryLockStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code distributed-lock.store}: which store's configuration applies, what each
 * contributes, and that the in-memory store needs neither Redis nor Spring Data Redis.
 * Nothing here talks to Redis: connections are opened lazily.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockStoreAutoConfigurationTests {

	private static final String IN_MEMORY_WARNING = "distributed-lock.store is 'in-memory'";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class, LineUnderTest.LOCKS,
				LineUnderTest.LOCK_METRICS, LocksEndpointAutoConfiguration.class, LineUnderTest.LOCK_HEALTH));

	/**
	 * No Spring Data Redis at all: neither its classes nor Boot's Redis
	 * auto-configuration.
	 */
	private final ApplicationContextRunner withoutRedis = new ApplicationContextRunner()
		.withClassLoader(
				new FilteredClassLoader("org.springframework.data.redis", "org.springframework.boot.data.redis"))
		.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, LineUnderTest.LOCKS,
				LineUnderTest.LOCK_METRICS, LocksEndpointAutoConfiguration.class, LineUnderTest.LOCK_HEALTH));

	@Test
	void redisIsTheDefault(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RedisLockStore.class)
				.hasSingleBean(MaxmemoryPolicyCheck.class)
				.doesNotHaveBean(InMemoryLockStore.class);
			assertThat(context.getBean(DistributedLockProperties.class).getStore())
				.isEqualTo(DistributedLockProperties.Store.REDIS);
		});
		assertThat(output).doesNotContain(IN_MEMORY_WARNING);
	}

	@Test
	void redisWhenNamed() {
		this.contextRunner.withPropertyValues("distributed-lock.store=redis")
			.run((context) -> assertThat(context).hasSingleBean(RedisLockStore.class)
				.hasSingleBean(MaxmemoryPolicyCheck.class)
				.doesNotHaveBean(InMemoryLockStore.class));
	}

	@Test
	void inMemoryWithoutSpringDataRedis(CapturedOutput output) {
		this.withoutRedis.withPropertyValues("distributed-lock.store=in-memory")
			.withBean(Annotated.class)
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(LockService.class)
					.hasSingleBean(LockEngine.class)
					.hasSingleBean(InMemoryLockStore.class)
					.hasSingleBean(DistributedLockAdvisor.class)
					.doesNotHaveBean(RedisConnectionFactory.class);
				assertThat(context.getBean(DistributedLockProperties.class).getStore())
					.isEqualTo(DistributedLockProperties.Store.IN_MEMORY);
				Annotated annotated = context.getBean(Annotated.class);
				assertThat(AopUtils.isAopProxy(annotated)).isTrue();
				LockService lockService = context.getBean(LockService.class);
				assertThat(annotated.run(lockService)).isTrue();
				assertThat(lockService.isLocked("annotated")).isFalse();
			});
		assertThat(output).contains("WARN").contains(IN_MEMORY_WARNING).contains("never other processes");
	}

	@Test
	void aReactiveLockServiceBesideEachStoreWhenReactorIsThere() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(ReactiveLockService.class)
			.hasSingleBean(ReactiveLockEngine.class)
			.hasSingleBean(RedisLockStore.class));
		this.withoutRedis.withPropertyValues("distributed-lock.store=in-memory")
			.run((context) -> assertThat(context).hasSingleBean(ReactiveLockService.class)
				.hasSingleBean(ReactiveLockEngine.class));
	}

	@Test
	void noReactiveLockServiceWithoutReactor() {
		this.withoutRedis
			.withClassLoader(new FilteredClassLoader("org.springframework.data.redis",
					"org.springframework.boot.data.redis", "reactor.core"))
			.withPropertyValues("distributed-lock.store=in-memory")
			.withBean(Annotated.class)
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(LockService.class);
				assertThat(context.getBeanNamesForType(ReactiveLockService.class)).isEmpty();
				LockService lockService = context.getBean(LockService.class);
				assertThat(context.getBean(Annotated.class).run(lockService)).isTrue();
			});
	}

	@Test
	void aUsersReactiveLockServiceReplacesTheDefault() {
		ReactiveLockService own = new ReactiveLockEngine(new InMemoryLockStore(), Duration.ofSeconds(30));
		this.contextRunner.withBean("ownReactiveLockService", ReactiveLockService.class, () -> own).run((context) -> {
			assertThat(context).hasSingleBean(ReactiveLockService.class);
			assertThat(context.getBean(ReactiveLockService.class)).isSameAs(own);
		});
	}

	@Test
	void inMemoryIgnoresARedisConnectionFactory() {
		this.contextRunner.withPropertyValues("distributed-lock.store=in-memory")
			.run((context) -> assertThat(context).hasSingleBean(RedisConnectionFactory.class)
				.hasSingleBean(LockEngine.class)
				.hasSingleBean(InMemoryLockStore.class)
				.doesNotHaveBean(RedisLockStore.class)
				.doesNotHaveBean(MaxmemoryPolicyCheck.class));
	}

	@Test
	void theEnumConstantNamesTheStoreToo() {
		this.withoutRedis.withPropertyValues("distributed-lock.store=IN_MEMORY")
			.run((context) -> assertThat(context).hasSingleBean(LockEngine.class)
				.hasSingleBean(InMemoryLockStore.class));
	}

	@Test
	void anApplicationsInMemoryLockStoreReplacesTheDefaultOne() {
		InMemoryLockStore own = new InMemoryLockStore();
		this.withoutRedis.withPropertyValues("distributed-lock.store=in-memory")
			.withBean(InMemoryLockStore.class, () -> own)
			.run((context) -> {
				assertThat(context).hasSingleBean(InMemoryLockStore.class);
				assertThat(context.getBean(InMemoryLockStore.class)).isSameAs(own);
				try (LockHandle handle = context.getBean(LockService.class)
					.tryLock("replaced", Duration.ZERO, null)
					.orElseThrow()) {
					assertThat(own.remainingLeaseMillis(own.key("replaced"))).isPositive();
				}
			});
	}

	@Test
	void inMemoryBacksOffFromAUserLockService(CapturedOutput output) {
		this.withoutRedis.withPropertyValues("distributed-lock.store=in-memory")
			.withUserConfiguration(DistributedLockAutoConfigurationTests.UserLockServiceConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(LockService.class).doesNotHaveBean(LockEngine.class);
				assertThat(context.getBean(LockService.class))
					.isSameAs(DistributedLockAutoConfigurationTests.UserLockServiceConfiguration.SERVICE);
			});
		assertThat(output).doesNotContain(IN_MEMORY_WARNING);
	}

	@Test
	void aValueNamingNoStoreFailsWithThePropertyAndTheValue() {
		this.contextRunner.withPropertyValues("distributed-lock.store=memcached").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasRootCauseInstanceOf(IllegalArgumentException.class);
			BindException bindFailure = findCause(context.getStartupFailure(), BindException.class);
			assertThat(bindFailure).isNotNull();
			assertThat(bindFailure.getMessage()).contains("distributed-lock.store");
			assertThat(bindFailure.getProperty().getValue()).isEqualTo("memcached");
		});
	}

	@Test
	void endpointHealthAndMetersInMemoryMode() {
		this.withoutRedis.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("distributed-lock.store=in-memory", "management.endpoints.web.exposure.include=locks")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(LockMetrics.class)
					.hasSingleBean(LocksEndpoint.class)
					.hasSingleBean(LineUnderTest.LOCK_HEALTH_INDICATOR);
				LockService lockService = context.getBean(LockService.class);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				context.getBean(LockMetrics.class).bindTo(registry);
				LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
				try (LockHandle handle = lockService.tryLock("inspected", Duration.ZERO, null).orElseThrow()) {
					assertThat(endpoint.locks().locks()).singleElement()
						.satisfies((held) -> assertThat(held.lockId()).isEqualTo("inspected"));
					assertThat(endpoint.lock(new String[] { "inspected" }).locked()).isTrue();
					assertThat(registry.get(LockMetrics.LOCKS_HELD).gauge().value()).isEqualTo(1);
				}
				assertThat(endpoint.locks().locks()).isEmpty();
				assertThat(LineUnderTest.health(context).status()).isEqualTo("UP");
			});
	}

	private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

	public static class Annotated {

		/** Whether the lock was held while the method ran. */
		@DistributedLock(name = "annotated")
		public boolean run(LockService lockService) {
			return lockService.isLocked("annotated");
		}

	}

}
