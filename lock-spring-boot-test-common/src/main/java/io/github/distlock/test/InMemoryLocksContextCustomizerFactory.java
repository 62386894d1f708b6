package io.github.distlock.test;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Sets {@code distributed-lock.store=in-memory}, ahead of every other property source, in
 * the context of a test annotated with
 * {@link AutoConfigureInMemoryLocks @AutoConfigureInMemoryLocks}.
 */
class InMemoryLocksContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return TestContextAnnotationUtils.hasAnnotation(testClass, AutoConfigureInMemoryLocks.class)
				? new InMemoryStoreProperty() : null;
	}

	private static final class InMemoryStoreProperty implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(
						new MapPropertySource("distlockInMemoryLocks", Map.of("distributed-lock.store", "in-memory")));
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
