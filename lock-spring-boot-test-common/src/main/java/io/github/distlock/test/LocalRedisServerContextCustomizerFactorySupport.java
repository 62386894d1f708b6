package io.github.distlock.test;

import java.util.List;
import java.util.function.Supplier;

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
 * Registers the {@code LocalRedisServerConnectionDetails} of a test annotated with
 * {@link LocalRedisServer @LocalRedisServer}, as Spring Boot registers the connection
 * details of a {@code @ServiceConnection}. Spring Boot's Redis connection details have
 * another type on each Boot line, so each line's kit module has its own
 * {@code LocalRedisServerConnectionDetails} and a subclass of this naming that type (in
 * {@code io.github.distlock.boot4.test} and {@code io.github.distlock.boot3.test}). For
 * the kits' modules; applications use {@link LocalRedisServer @LocalRedisServer}.
 */
public abstract class LocalRedisServerContextCustomizerFactorySupport implements ContextCustomizerFactory {

	/** The port {@link LocalRedisServer#port()} refuses: a developer's own Redis. */
	private static final int DEVELOPER_REDIS_PORT = 6379;

	private final String connectionDetailsType;

	private final String connectionDetailsModule;

	/**
	 * The factory of a Boot line.
	 * @param connectionDetailsType the class name of the line's Redis connection details
	 * @param connectionDetailsModule the Spring Boot artifact that holds it
	 */
	protected LocalRedisServerContextCustomizerFactorySupport(String connectionDetailsType,
			String connectionDetailsModule) {
		this.connectionDetailsType = connectionDetailsType;
		this.connectionDetailsModule = connectionDetailsModule;
	}

	/**
	 * The bean definition of the line's {@code LocalRedisServerConnectionDetails}, which
	 * starts the server. Called only once the line's connection details type is known to
	 * be present.
	 * @param port the port of the server, 0 for a free one
	 * @return the bean definition
	 */
	protected abstract RootBeanDefinition connectionDetails(int port);

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		LocalRedisServer annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass,
				LocalRedisServer.class);
		if (annotation == null) {
			return null;
		}
		int port = annotation.port();
		if (port < 0 || port > 65535 || port == DEVELOPER_REDIS_PORT) {
			throw new IllegalStateException("@LocalRedisServer(port = " + port + ") on " + testClass.getName()
					+ ": the port must be 0 (a free one) or 1..65535, but not 6379, a developer's own Redis");
		}
		if (!ClassUtils.isPresent(this.connectionDetailsType, testClass.getClassLoader())) {
			throw new IllegalStateException("@LocalRedisServer on " + testClass.getName()
					+ " needs Spring Boot's Redis support on the test class path (" + this.connectionDetailsType
					+ ", in " + this.connectionDetailsModule + "; the distlock starter brings it)");
		}
		return new ConnectionDetailsRegistration(port, () -> connectionDetails(port));
	}

	private static final class ConnectionDetailsRegistration implements ContextCustomizer {

		private final int port;

		private final Supplier<RootBeanDefinition> definition;

		private ConnectionDetailsRegistration(int port, Supplier<RootBeanDefinition> definition) {
			this.port = port;
			this.definition = definition;
		}

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			if (!(context.getBeanFactory() instanceof BeanDefinitionRegistry registry)) {
				throw new IllegalStateException("@LocalRedisServer needs an application context whose bean factory"
						+ " accepts bean definitions, but got " + context.getBeanFactory().getClass().getName());
			}
			registry.registerBeanDefinition("localRedisServerConnectionDetails", this.definition.get());
		}

		/**
		 * One server per context: the customizers of any two such tests with the same
		 * port are equal.
		 */
		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof ConnectionDetailsRegistration registration && registration.port == this.port;
		}

		@Override
		public int hashCode() {
			return Integer.hashCode(this.port);
		}

	}

}
