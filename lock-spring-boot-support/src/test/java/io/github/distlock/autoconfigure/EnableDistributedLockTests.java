package io.github.distlock.autoconfigure;

import io.github.distlock.DistributedLock;
import io.github.distlock.config.EnableDistributedLock;
import io.github.distlock.LockService;
import io.github.distlock.interceptor.DistributedLockAdvisor;
import io.github.distlock.interceptor.DistributedLockInterceptor;
import io.github.distlock.interceptor.LockKeyEvaluator;
import io.github.distlock.interceptor.LockOperationSource;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link EnableDistributedLock @EnableDistributedLock} with the auto-configuration: an
 * explicit {@code PROXY} mode gives the same beans as none, once; {@code ASPECTJ} without
 * {@code lock-spring-aspects} (not on this module's class path) fails with a message
 * saying what to add. Nothing here talks to Redis.
 */
class EnableDistributedLockTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class, LineUnderTest.LOCKS));

	@Test
	void anExplicitProxyModeRegistersTheInterceptionOnce() {
		this.contextRunner.withUserConfiguration(ExplicitProxyMode.class).withBean(Annotated.class).run((context) -> {
			assertThat(context).hasSingleBean(LockService.class)
				.hasSingleBean(LockKeyEvaluator.class)
				.hasSingleBean(LockOperationSource.class)
				.hasSingleBean(DistributedLockInterceptor.class)
				.hasSingleBean(DistributedLockAdvisor.class);
			assertThat(AopUtils.isAopProxy(context.getBean(Annotated.class))).isTrue();
		});
	}

	@Test
	void anExplicitProxyModeIsOffWhenDistributedLocksAreDisabled() {
		this.contextRunner.withUserConfiguration(ExplicitProxyMode.class)
			.withBean(Annotated.class)
			.withPropertyValues("distributed-lock.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(LockService.class)
					.doesNotHaveBean(DistributedLockAdvisor.class);
				assertThat(AopUtils.isAopProxy(context.getBean(Annotated.class))).isFalse();
			});
	}

	@Test
	void aspectjModeWithoutTheAspectsModuleFailsNamingIt() {
		this.contextRunner.withUserConfiguration(AspectJMode.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("@EnableDistributedLock(mode = AdviceMode.ASPECTJ) needs"
						+ " io.github.distlock:lock-spring-aspects on the class path");
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableDistributedLock
	static class ExplicitProxyMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableDistributedLock(mode = AdviceMode.ASPECTJ)
	static class AspectJMode {

	}

	static class Annotated {

		@DistributedLock
		public void run() {
		}

	}

}
