package io.github.distlock.aspectj;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.DistributedLock;
import io.github.distlock.config.EnableDistributedLock;
import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.aspectj.ltw.LtwCounter;
import io.github.distlock.interceptor.DistributedLockAdvisor;
import io.github.distlock.interceptor.DistributedLockInterceptor;
import io.github.distlock.testsupport.RedisServerExtension;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.aop.Advisor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * ASPECTJ mode with compile-time weaving, in one JVM: which methods are locked, that no
 * proxy locks them again, what fails at startup, and the aspect's binding to the
 * application contexts. Another application instance (a proxy-mode context with its own
 * connection) observes the locks in Redis.
 */
class AspectJModeTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static ConfigurableApplicationContext otherInstance;

	private static LockService observer;

	@BeforeAll
	static void startOtherInstance() {
		otherInstance = new SpringApplicationBuilder(OtherInstance.class).web(WebApplicationType.NONE)
			.run("--spring.data.redis.host=" + redis.host(), "--spring.data.redis.port=" + redis.port(),
					"--spring.main.banner-mode=off");
		observer = otherInstance.getBean(LockService.class);
	}

	@AfterAll
	static void stopOtherInstance() {
		otherInstance.close();
	}

	private ApplicationContextRunner aspectjMode() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LineUnderTest.redisAutoConfiguration(), AopAutoConfiguration.class,
					LineUnderTest.lockAutoConfiguration()))
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port())
			.withUserConfiguration(AspectJMode.class);
	}

	@Test
	void packagePrivatePrivateFinalAndStaticMethodsAreLockedWhenCalledThroughThisAlsoOnObjectsThatAreNotBeans() {
		aspectjMode().withBean(Inventory.class, () -> new Inventory(observer)).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(DistributedLockAdvisor.class)
				.doesNotHaveBean(DistributedLockInterceptor.class);
			Inventory inventory = context.getBean(Inventory.class);
			assertThat(AopUtils.isAopProxy(inventory)).isFalse();
			inventory.buy("apple");
			inventory.audit();
			inventory.close();
			inventory.nightly("monday");
			assertThat(inventory.seen()).containsExactly("stock:apple held elsewhere=true, handle=true",
					"audit held elsewhere=true, handle=true", "books held elsewhere=true, handle=true",
					"nightly:monday held elsewhere=true, handle=true");
			assertThat(List.of("stock:apple", "audit", "books", "nightly:monday")).noneMatch(observer::isLocked);
			Inventory notABean = new Inventory(observer);
			notABean.buy("fig");
			assertThat(notABean.seen()).containsExactly("stock:fig held elsewhere=true, handle=true");
		});
	}

	@Test
	void aBeanThatIsAlsoProxiedIsLockedOnceByTheAspect() {
		AtomicInteger proxiedCalls = new AtomicInteger();
		List<String> acquisitions = new CopyOnWriteArrayList<>();
		Advisor anotherAdvisor = new DefaultPointcutAdvisor(new AnnotationMatchingPointcut(null, DistributedLock.class),
				(MethodInterceptor) (invocation) -> {
					proxiedCalls.incrementAndGet();
					return invocation.proceed();
				});
		aspectjMode().withBean(Inventory.class, () -> new Inventory(observer))
			.withBean("anotherAdvisor", Advisor.class, () -> anotherAdvisor)
			.withBean(CountingLockServices.class, () -> new CountingLockServices(acquisitions))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(DistributedLockAdvisor.class);
				Inventory inventory = context.getBean(Inventory.class);
				assertThat(AopUtils.isAopProxy(inventory)).isTrue();
				inventory.reserveNow("pear");
				assertThat(proxiedCalls).hasValue(1);
				inventory.buy("apple");
				assertThat(acquisitions).containsExactly("stock:pear", "stock:apple");
				assertThat(inventory.seen()).containsExactly("stock:pear held elsewhere=true, handle=true",
						"stock:apple held elsewhere=true, handle=true");
			});
	}

	static Iterable<Arguments> beansThatFail() {
		return List.of(
				Arguments.of(LtwCounter.class, "@DistributedLock on " + LtwCounter.class.getName() + ".add() (bean",
						"is not woven, so it would run without the lock"),
				Arguments.of(Pricing.Implementation.class,
						"Invalid @DistributedLock on " + Pricing.Implementation.class.getName() + ".reprice()",
						"inherited from an interface or an overridden method"),
				Arguments.of(BadKeyOnPrivateMethod.class,
						"Invalid @DistributedLock on " + BadKeyOnPrivateMethod.class.getName() + ".run(String)",
						"'nope' that does not exist"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("beansThatFail")
	void aBeanFailsAtStartupNamingTheMethod(Class<?> beanClass, String method, String reason) {
		aspectjMode().withBean(beanClass).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure.getCause() != null
					&& !(failure instanceof IllegalStateException && failure.getMessage().startsWith(method))) {
				failure = failure.getCause();
			}
			assertThat(failure).isInstanceOf(IllegalStateException.class)
				.hasMessageContaining(method)
				.hasMessageContaining(reason);
		});
	}

	@Test
	void theAdvisorOrderPropertyIsRejectedAsItWouldHaveNoEffect() {
		aspectjMode().withPropertyValues("distributed-lock.order=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("distributed-lock.order is set, but it orders the proxy mode's advisor");
		});
	}

	@Test
	void bothModesInOneContextAreRejectedAsTheyWouldLockTwice() {
		aspectjMode().withUserConfiguration(ProxyModeToo.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("every locked method would be locked twice");
		});
	}

	@Test
	void disabledLocksLeaveWovenMethodsRunningWithoutALock() {
		aspectjMode().withPropertyValues("distributed-lock.enabled=false")
			.withBean(Inventory.class, () -> new Inventory(observer))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(LockService.class);
				Inventory inventory = context.getBean(Inventory.class);
				inventory.buy("apple");
				assertThat(inventory.seen()).containsExactly("stock:apple held elsewhere=false, handle=false");
			});
	}

	@Test
	void closingTheLaterOfTwoContextsHandsTheAspectBackToTheEarlierAndClosingBothFailsWovenCalls() {
		Inventory[] earlier = new Inventory[1];
		aspectjMode().withBean(Inventory.class, () -> new Inventory(observer)).run((first) -> {
			earlier[0] = first.getBean(Inventory.class);
			aspectjMode().run((second) -> assertThat(second).hasNotFailed());
			earlier[0].buy("apple");
			assertThat(earlier[0].seen()).containsExactly("stock:apple held elsewhere=true, handle=true");
		});
		assertThatIllegalStateException().isThrownBy(() -> earlier[0].buy("pear"))
			.withMessage(Inventory.class.getName() + ".reserve is not run without its lock: the application context"
					+ " bound to DistributedLockAspect (@EnableDistributedLock(mode = AdviceMode.ASPECTJ)) has been closed");
		assertThat(earlier[0].seen()).hasSize(1);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableDistributedLock(mode = AdviceMode.ASPECTJ)
	static class AspectJMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableDistributedLock(mode = AdviceMode.PROXY)
	static class ProxyModeToo {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportRedisAndLockAutoConfiguration
	static class OtherInstance {

	}

	static class BadKeyOnPrivateMethod {

		@DistributedLock(key = "#nope")
		private void run(String sku) {
		}

	}

	/** Records every acquisition the lock service is asked for. */
	static class CountingLockServices implements BeanPostProcessor {

		private final List<String> acquisitions;

		CountingLockServices(List<String> acquisitions) {
			this.acquisitions = acquisitions;
		}

		@Override
		public Object postProcessAfterInitialization(Object bean, String beanName) {
			if (!(bean instanceof LockService service)) {
				return bean;
			}
			return new LockService() {

				@Override
				public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
					CountingLockServices.this.acquisitions.add(lockId);
					return service.tryLock(lockId, waitTime, leaseTime);
				}

				@Override
				public boolean isLocked(String lockId) {
					return service.isLocked(lockId);
				}

			};
		}

	}

}
