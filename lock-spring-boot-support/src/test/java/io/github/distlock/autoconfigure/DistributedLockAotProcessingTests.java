package io.github.distlock.autoconfigure;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import io.github.distlock.DistributedLock;
import io.github.distlock.actuate.LocksEndpoint;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application context with distlock, its endpoint and a locked bean, processed ahead
 * of time as {@code process-aot} does: it generates, and its hints cover what distlock
 * reads reflectively at run time. distlock registers those of the annotation and of the
 * locked methods; Spring Boot those of the properties (a bound bean) and of the
 * endpoint's answers (the return types of its read operations), which distlock therefore
 * does not repeat.
 */
// onMethod(...).invoke() is onMethodInvocation(...) on Framework 7; the suite runs on 6.2
// too
@SuppressWarnings("deprecation")
class DistributedLockAotProcessingTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class, LineUnderTest.LOCKS,
				LocksEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=locks")
		.withUserConfiguration(LockedServiceConfiguration.class);

	@Test
	void hintsOfTheAnnotationAndOfTheLockedMethods() {
		RuntimeHints hints = processAheadOfTime();
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(DistributedLock.class)
			.withMemberCategory(MemberCategory.INVOKE_DECLARED_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(LockedService.class, "ship", String.class))
			.invoke()).accepts(hints);
	}

	@Test
	void hintsOfThePropertiesAreSpringBoots() {
		RuntimeHints hints = processAheadOfTime();
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(DistributedLockProperties.class, "setWaitTime", Duration.class))
			.invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(DistributedLockProperties.Web.class, "setRetryAfter", Duration.class))
			.invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(DistributedLockProperties.Quorum.class, "setNodes", List.class))
			.invoke()).accepts(hints);
	}

	@Test
	void hintsOfTheEndpointsAnswersAreSpringBoots() {
		RuntimeHints hints = processAheadOfTime();
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(LocksEndpoint.HeldLocksDescriptor.class, "locks"))
			.invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(LocksEndpoint.HeldLockDescriptor.class, "fencingToken"))
			.invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(LocksEndpoint.LockDescriptor.class, "heldByThisInstance"))
			.invoke()).accepts(hints);
	}

	private RuntimeHints processAheadOfTime() {
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(getClass())), new InMemoryGeneratedFiles());
		this.contextRunner.prepare((context) -> new ApplicationContextAotGenerator().processAheadOfTime(
				context.getSourceApplicationContext(GenericApplicationContext.class), generationContext));
		return generationContext.getRuntimeHints();
	}

	private static Method method(Class<?> type, String name, Class<?>... parameterTypes) {
		Method method = ReflectionUtils.findMethod(type, name, parameterTypes);
		assertThat(method).as(type.getSimpleName() + "." + name).isNotNull();
		return method;
	}

	@Configuration(proxyBeanMethods = false)
	static class LockedServiceConfiguration {

		@Bean
		LockedService lockedService() {
			return new LockedService();
		}

	}

	static class LockedService {

		@DistributedLock(key = "#sku")
		public void ship(String sku) {
		}

	}

}
