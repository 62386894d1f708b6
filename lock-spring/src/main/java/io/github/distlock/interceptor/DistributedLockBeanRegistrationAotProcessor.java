package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.Set;

import io.github.distlock.DistributedLock;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.aot.BeanRegistrationCode;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

/**
 * The runtime hints of the beans that have {@link DistributedLock @DistributedLock}
 * methods, as Spring registers those of {@code @Transactional} methods: each locked
 * method is found and invoked reflectively (the operation source looks its annotation up,
 * the key expression names its parameters), and the arguments of a method with a key are
 * read reflectively by the key expression ({@code #order.id}: {@link LockKeyEvaluator}'s
 * evaluation context binds their properties), so their types get binding hints.
 * Registered in {@code META-INF/spring/aot.factories}.
 */
class DistributedLockBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
		if (!AnnotationUtils.isCandidateClass(beanClass, DistributedLock.class)) {
			return null;
		}
		Set<Method> locked = MethodIntrospector
			.selectMethods(beanClass,
					(MethodIntrospector.MetadataLookup<DistributedLock>) (method) -> AnnotatedElementUtils
						.findMergedAnnotation(method, DistributedLock.class))
			.keySet();
		return locked.isEmpty() ? null : new LockedMethodsContribution(locked);
	}

	private static final class LockedMethodsContribution implements BeanRegistrationAotContribution {

		private final Set<Method> methods;

		private LockedMethodsContribution(Set<Method> methods) {
			this.methods = methods;
		}

		@Override
		public void applyTo(GenerationContext generationContext, BeanRegistrationCode beanRegistrationCode) {
			ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
			BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();
			for (Method method : this.methods) {
				reflection.registerMethod(method, ExecutableMode.INVOKE);
				DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
				if (annotation != null && !annotation.key().isBlank()) {
					bindings.registerReflectionHints(reflection, method.getGenericParameterTypes());
				}
			}
		}

	}

}
