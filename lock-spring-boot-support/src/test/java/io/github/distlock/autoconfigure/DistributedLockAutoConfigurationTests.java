package io.github.distlock.autoconfigure;

import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.jayway.jsonpath.JsonPath;
import io.github.distlock.DistributedLock;
import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.interceptor.DistributedLockAdvisor;
import io.github.distlock.interceptor.DistributedLockInterceptor;
import io.github.distlock.interceptor.LockOperationSource;
import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.RedisLockStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which beans the auto-configuration contributes, and when it backs off. Nothing here
 * talks to Redis: connections are opened lazily.
 */
class DistributedLockAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class, LineUnderTest.LOCKS));

	@Test
	void contributesTheLockServiceAndTheInterception() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockService.class)
				.hasSingleBean(RedisLockStore.class)
				.hasSingleBean(LockOperationSource.class)
				.hasSingleBean(DistributedLockInterceptor.class)
				.hasSingleBean(DistributedLockAdvisor.class);
			assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
				.isEqualTo(DistributedLockProperties.DEFAULT_ORDER);
		});
	}

	@Test
	void backsOffFromAUserLockService() {
		this.contextRunner.withUserConfiguration(UserLockServiceConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LockService.class).doesNotHaveBean(LockEngine.class);
			assertThat(context.getBean(LockService.class)).isSameAs(UserLockServiceConfiguration.SERVICE);
			assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
		});
	}

	@Test
	void backsOffFromUserInterceptionBeans() {
		this.contextRunner.withUserConfiguration(UserOperationSourceConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(LockOperationSource.class);
			assertThat(context.getBean(LockOperationSource.class)).isSameAs(UserOperationSourceConfiguration.SOURCE);
		});
	}

	@Test
	void canBeDisabledAndThenAnnotatedMethodsRunUnintercepted() {
		this.contextRunner.withPropertyValues("distributed-lock.enabled=false")
			.withBean(Annotated.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(LockService.class)
					.doesNotHaveBean(DistributedLockAdvisor.class)
					.doesNotHaveBean(DistributedLockProperties.class);
				Annotated annotated = context.getBean(Annotated.class);
				assertThat(AopUtils.isAopProxy(annotated)).isFalse();
				assertThat(annotated.run()).isEqualTo("ran");
			});
	}

	@Test
	void annotatedBeansAreProxiedWhenEnabled() {
		this.contextRunner.withBean(Annotated.class).run((context) -> {
			assertThat(AopUtils.isAopProxy(context.getBean(Annotated.class))).isTrue();
		});
	}

	@Test
	void backsOffWithoutSpringDataRedis() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(StringRedisTemplate.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockService.class)
				.doesNotHaveBean(DistributedLockAdvisor.class));
	}

	@Test
	void noLockServiceWithoutAConnectionFactory() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LineUnderTest.LOCKS))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockService.class));
	}

	@Test
	void propertiesAreBound() {
		this.contextRunner
			.withPropertyValues("distributed-lock.key-prefix=shop:locks:", "distributed-lock.wait-time=2s",
					"distributed-lock.lease-time=1m", "distributed-lock.fencing-retention=5m",
					"distributed-lock.order=42")
			.run((context) -> {
				DistributedLockProperties properties = context.getBean(DistributedLockProperties.class);
				assertThat(properties.getKeyPrefix()).isEqualTo("shop:locks:");
				assertThat(properties.getWaitTime()).isEqualTo(Duration.ofSeconds(2));
				assertThat(properties.getLeaseTime()).isEqualTo(Duration.ofMinutes(1));
				assertThat(properties.getFencingRetention()).isEqualTo(Duration.ofMinutes(5));
				assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42);
			});
	}

	@Test
	void badPropertiesFailWithTheirName() {
		this.contextRunner.withPropertyValues("distributed-lock.key-prefix=locks{x}:")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distributed-lock.key-prefix"));
		this.contextRunner.withPropertyValues("distributed-lock.wait-time=-1s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distributed-lock.wait-time"));
		this.contextRunner.withPropertyValues("distributed-lock.lease-time=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distributed-lock.lease-time"));
	}

	@Test
	void everyPropertyHasADescriptionInTheMetadata() throws Exception {
		String metadata;
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			metadata = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
		}
		// lock-spring-boot-support's metadata comes from Boot 3.5's processor (the line
		// it is compiled
		// against), which also lists the endpoint's deprecated "enabled" switch.
		List<String> deprecated = JsonPath.read(metadata, "$.properties[?(@.deprecated == true)].name");
		assertThat(deprecated).containsExactly("management.endpoint.locks.enabled");
		List<String> replacement = JsonPath.read(metadata,
				"$.properties[?(@.name == 'management.endpoint.locks.enabled')].deprecation.replacement");
		assertThat(replacement).containsExactly("management.endpoint.locks.access");
		List<Map<String, Object>> current = JsonPath.<List<Map<String, Object>>>read(metadata, "$.properties[*]")
			.stream()
			.filter((property) -> !Boolean.TRUE.equals(property.get("deprecated")))
			.toList();
		List<Object> names = current.stream().map((property) -> property.get("name")).toList();
		List<Object> descriptions = current.stream().map((property) -> property.get("description")).toList();
		assertThat(names).containsExactlyInAnyOrder("distributed-lock.enabled", "distributed-lock.key-prefix",
				"distributed-lock.wait-time", "distributed-lock.lease-time", "distributed-lock.fencing-retention",
				"distributed-lock.order", "distributed-lock.store", "distributed-lock.quorum.nodes",
				"distributed-lock.replication.min-replicas", "distributed-lock.replication.timeout",
				"distributed-lock.replication.renewals", "distributed-lock.web.enabled", "distributed-lock.web.status",
				"distributed-lock.web.retry-after", "management.endpoint.locks.access",
				"management.endpoint.locks.cache.time-to-live", "management.health.distributed-lock.enabled");
		assertThat(descriptions).hasSameSizeAs(names)
			.allSatisfy((description) -> assertThat((String) description).isNotBlank());
		List<String> storeDefault = JsonPath.read(metadata,
				"$.properties[?(@.name == 'distributed-lock.store')].defaultValue");
		assertThat(storeDefault).containsExactly("redis");
		List<Integer> orderDefault = JsonPath.read(metadata,
				"$.properties[?(@.name == 'distributed-lock.order')].defaultValue");
		assertThat(orderDefault).containsExactly(DistributedLockProperties.DEFAULT_ORDER);
	}

	static class Annotated {

		@DistributedLock
		public String run() {
			return "ran";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserLockServiceConfiguration {

		static final LockService SERVICE = new LockService() {

			@Override
			public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
				return Optional.empty();
			}

			@Override
			public boolean isLocked(String lockId) {
				return false;
			}

		};

		@Bean
		LockService userLockService() {
			return SERVICE;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserOperationSourceConfiguration {

		static final LockOperationSource SOURCE = new LockOperationSource() {

			@Override
			public boolean isCandidateClass(Class<?> targetClass) {
				return false;
			}

			@Override
			public io.github.distlock.interceptor.@Nullable LockOperation getLockOperation(
					java.lang.reflect.Method method, @Nullable Class<?> targetClass) {
				return null;
			}

		};

		@Bean
		LockOperationSource userLockOperationSource() {
			return SOURCE;
		}

	}

}
