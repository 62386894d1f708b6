package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.github.distlock.LockService;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.context.support.PropertySourcesPlaceholderConfigurer;

/**
 * Runs a test against an application context in which {@code @DistributedLock} is
 * intercepted, wired with plain Spring Framework as the Boot auto-configuration wires it
 * ({@code DistributedLockInterceptionConfiguration} in {@code lock-spring-boot-support}):
 * operation source, interceptor and advisor, picked up by an auto-proxy creator, over a
 * {@link LockEngine} on the given store. Each run starts a context and an engine of its
 * own and closes both, also when the test fails.
 */
final class InterceptionContextRunner {

	private final LockStore store;

	private final Duration defaultWaitTime;

	private final List<Class<?>> configurations = new ArrayList<>();

	private final Properties placeholders = new Properties();

	/**
	 * A runner over {@code store}.
	 * @param store the store of every context's engine
	 * @param defaultWaitTime the wait of annotations that set none (the
	 * {@code distributed-lock.wait-time} of a Boot application)
	 */
	InterceptionContextRunner(LockStore store, Duration defaultWaitTime) {
		this.store = store;
		this.defaultWaitTime = defaultWaitTime;
	}

	/**
	 * Adds user configuration classes (the services under test).
	 * @param configurations the classes
	 * @return this runner
	 */
	InterceptionContextRunner withUserConfiguration(Class<?>... configurations) {
		this.configurations.addAll(List.of(configurations));
		return this;
	}

	/**
	 * Adds a value that {@code ${...}} placeholders in annotations resolve to.
	 * @param name the placeholder's name
	 * @param value its value
	 * @return this runner
	 */
	InterceptionContextRunner withPlaceholder(String name, String value) {
		this.placeholders.setProperty(name, value);
		return this;
	}

	/**
	 * Starts a context, runs {@code test} against it, and closes it and its engine.
	 * @param test the test
	 */
	void run(ContextTest test) {
		try (LockEngine engine = new LockEngine(this.store, Duration.ofSeconds(30));
				AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.registerBean(LockService.class, () -> engine);
			context.registerBean(Duration.class, () -> this.defaultWaitTime);
			context.registerBean(PropertySourcesPlaceholderConfigurer.class, this::placeholderConfigurer);
			context.register(LockInterceptionConfiguration.class);
			this.configurations.forEach(context::register);
			context.refresh();
			test.run(context);
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Starts a context that is expected to fail.
	 * @return why it failed, or {@code null} if it started
	 */
	@Nullable Throwable startupFailure() {
		try {
			run((context) -> {
			});
			return null;
		}
		catch (RuntimeException | Error ex) {
			return ex;
		}
	}

	private PropertySourcesPlaceholderConfigurer placeholderConfigurer() {
		PropertySourcesPlaceholderConfigurer configurer = new PropertySourcesPlaceholderConfigurer();
		configurer.setProperties(this.placeholders);
		return configurer;
	}

	/** A test against a started context. */
	@FunctionalInterface
	interface ContextTest {

		void run(AnnotationConfigApplicationContext context) throws Throwable;

	}

	/**
	 * The interception beans, as {@code @EnableDistributedLock} in PROXY mode declares
	 * them: static, infrastructure, and lazy about the lock service.
	 */
	@Configuration(proxyBeanMethods = false)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static class LockInterceptionConfiguration {

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static LockKeyEvaluator lockKeyEvaluator() {
			return new LockKeyEvaluator();
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static LockOperationSource lockOperationSource(LockKeyEvaluator lockKeyEvaluator) {
			return new AnnotationLockOperationSource(lockKeyEvaluator);
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static DistributedLockInterceptor distributedLockInterceptor(LockOperationSource lockOperationSource,
				LockKeyEvaluator lockKeyEvaluator,
				org.springframework.beans.factory.ObjectProvider<LockService> lockService,
				org.springframework.beans.factory.ObjectProvider<Duration> defaultWaitTime) {
			return new DistributedLockInterceptor(lockOperationSource, lockKeyEvaluator, lockService::getObject,
					defaultWaitTime::getObject);
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static DistributedLockAdvisor distributedLockAdvisor(LockOperationSource lockOperationSource,
				DistributedLockInterceptor distributedLockInterceptor) {
			return new DistributedLockAdvisor(lockOperationSource, distributedLockInterceptor);
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static DefaultAdvisorAutoProxyCreator autoProxyCreator() {
			DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
			// As Boot's AOP auto-configuration: class proxies, so beans are injected by
			// class.
			creator.setProxyTargetClass(true);
			return creator;
		}

	}

}
