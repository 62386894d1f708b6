package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import io.github.distlock.DistributedLock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.mockito.Mockito;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints of the beans with {@code @DistributedLock} methods: their locked methods, and
 * the types their key expressions read.
 */
// onMethod(...).invoke() is onMethodInvocation(...) on Framework 7; the suite runs on 6.2
// too
@SuppressWarnings("deprecation")
class DistributedLockBeanRegistrationAotProcessorTests {

	private final DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();

	@Test
	void lockedMethodsCanBeInvokedReflectivelyAndOthersAreLeftOut() {
		RuntimeHints hints = process(Orders.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(method(Orders.class, "ship", Order.class)).invoke())
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(method(Orders.class, "report", Report.class)).invoke())
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(method(Orders.class, "count")).invoke()).rejects(hints);
	}

	@Test
	void argumentsOfAKeyExpressionCanBeReadReflectively() {
		RuntimeHints hints = process(Orders.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(method(Order.class, "id")).invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Report.class)).rejects(hints);
	}

	@Test
	void lockedMethodOfAnInterfaceIsFoundOnTheImplementation() {
		RuntimeHints hints = process(InterfaceOrders.class);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethod(method(InterfaceOrders.class, "ship", Order.class))
			.invoke()).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(method(Order.class, "id")).invoke()).accepts(hints);
	}

	@Test
	void beanWithoutLockedMethodsContributesNothing() {
		assertThat(contribution(Report.class)).isNull();
		assertThat(contribution(String.class)).isNull();
	}

	@Test
	void isRegisteredForAheadOfTimeProcessing() {
		assertThat(AotServices.factories().load(BeanRegistrationAotProcessor.class))
			.hasAtLeastOneElementOfType(DistributedLockBeanRegistrationAotProcessor.class);
	}

	private RuntimeHints process(Class<?> beanClass) {
		BeanRegistrationAotContribution contribution = contribution(beanClass);
		assertThat(contribution).isNotNull();
		DefaultGenerationContext generationContext = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(getClass())), new InMemoryGeneratedFiles());
		contribution.applyTo(generationContext, Mockito.mock(BeanRegistrationCode.class));
		return generationContext.getRuntimeHints();
	}

	private @Nullable BeanRegistrationAotContribution contribution(Class<?> beanClass) {
		String name = beanClass.getName();
		this.beanFactory.registerBeanDefinition(name, new RootBeanDefinition(beanClass));
		return new DistributedLockBeanRegistrationAotProcessor()
			.processAheadOfTime(RegisteredBean.of(this.beanFactory, name));
	}

	private static Method method(Class<?> type, String name, Class<?>... parameterTypes) {
		Method method = ReflectionUtils.findMethod(type, name, parameterTypes);
		assertThat(method).as(type.getSimpleName() + "." + name).isNotNull();
		return method;
	}

	record Order(String id) {

	}

	record Report(String title) {

	}

	static class Orders {

		@DistributedLock(key = "#order.id")
		public void ship(Order order) {
		}

		@DistributedLock(name = "reports")
		public void report(Report report) {
		}

		public int count() {
			return 0;
		}

	}

	interface Shipping {

		@DistributedLock(key = "#order.id")
		void ship(Order order);

	}

	static class InterfaceOrders implements Shipping {

		@Override
		public void ship(Order order) {
		}

	}

}
