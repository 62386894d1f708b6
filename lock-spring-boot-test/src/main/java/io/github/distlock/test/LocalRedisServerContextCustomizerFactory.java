package io.github.distlock.test;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * Registers the {@link LocalRedisServerConnectionDetails} of a test annotated with
 * {@link LocalRedisServer @LocalRedisServer}, as Spring Boot registers the connection
 * details of a {@code @ServiceConnection}.
 */
class LocalRedisServerContextCustomizerFactory implements ContextCustomizerFactory {

	private static final String CONNECTION_DETAILS = "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails";

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		if (!TestContextAnnotationUtils.hasAnnotation(testClass, LocalRedisServer.class)) {
			return null;
		}
		if (!ClassUtils.isPresent(CONNECTION_DETAILS, testClass.getClassLoader())) {
			throw new IllegalStateException("@LocalRedisServer on " + testClass.getName()
					+ " needs Spring Boot's Redis support on the test class path (" + CONNECTION_DETAILS
					+ ", in spring-boot-data-redis; the distlock starter brings it)");
		}
		return new ConnectionDetailsRegistration();
	}

	private static final class ConnectionDetailsRegistration implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			if (!(context.getBeanFactory() instanceof BeanDefinitionRegistry registry)) {
				throw new IllegalStateException("@LocalRedisServer needs an application context whose bean factory"
						+ " accepts bean definitions, but got " + context.getBeanFactory().getClass().getName());
			}
			RootBeanDefinition definition = new RootBeanDefinition(LocalRedisServerConnectionDetails.class,
					LocalRedisServerConnectionDetails::start);
			registry.registerBeanDefinition("localRedisServerConnectionDetails", definition);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other != null && other.getClass() == getClass();
		}

		@Override
		public int hashCode() {
			return getClass().hashCode();
		}

	}

}
