package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.distlock.DistributedLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

/**
 * Warns, once the singletons exist, about every singleton bean that has
 * {@link DistributedLock @DistributedLock} methods but was not proxied by the lock
 * advisor: its locked methods would run without a lock and nothing else would say so. The
 * usual cause is a bean created before the auto-proxy creator, because a
 * {@code BeanPostProcessor} or {@code BeanFactoryPostProcessor} depends on it.
 * <p>
 * What it cannot see: objects that are not beans ({@code new Inventory()}), prototype and
 * lazy beans created later, and calls from inside a bean ({@code this.locked()}), which
 * bypass its proxy. Mockito mocks and spies that tests register in place of a bean are
 * left alone: they are not meant to lock.
 */
public class UnproxiedLockedBeansCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(UnproxiedLockedBeansCheck.class);

	private final ConfigurableListableBeanFactory beanFactory;

	/**
	 * A check of the singletons of {@code beanFactory}.
	 * @param beanFactory the factory whose singletons to check
	 */
	public UnproxiedLockedBeansCheck(ConfigurableListableBeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (String name : this.beanFactory.getSingletonNames()) {
			if (isInfrastructure(name)) {
				continue;
			}
			Object bean = this.beanFactory.getSingleton(name);
			if (bean == null || isAdvisedForLocks(bean) || TestDoubles.isMockOrSpy(bean)) {
				continue;
			}
			Class<?> type = AopProxyUtils.ultimateTargetClass(bean);
			Map<Method, DistributedLock> locked = lockedMethods(type);
			if (!locked.isEmpty()) {
				logger.warn(message(name, type, locked));
			}
		}
	}

	private boolean isInfrastructure(String name) {
		return this.beanFactory.containsBeanDefinition(name)
				&& this.beanFactory.getBeanDefinition(name).getRole() == BeanDefinition.ROLE_INFRASTRUCTURE;
	}

	private static boolean isAdvisedForLocks(Object bean) {
		if (bean instanceof Advised advised) {
			for (Advisor advisor : advised.getAdvisors()) {
				if (advisor instanceof DistributedLockAdvisor
						|| advisor.getAdvice() instanceof DistributedLockInterceptor) {
					return true;
				}
			}
		}
		return false;
	}

	private static Map<Method, DistributedLock> lockedMethods(Class<?> type) {
		if (!AnnotationUtils.isCandidateClass(type, DistributedLock.class)) {
			return Map.of();
		}
		return MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<DistributedLock>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, DistributedLock.class));
	}

	static String message(String name, Class<?> type, Map<Method, DistributedLock> locked) {
		String methods = locked.keySet()
			.stream()
			.map(LockOperation::describe)
			.sorted()
			.collect(Collectors.joining(", "));
		return "Bean '" + name + "' (" + type.getName() + ") has @DistributedLock methods, but it is not proxied by"
				+ " the lock advisor, so they run WITHOUT a lock: " + methods + ". The usual cause is that the bean"
				+ " was created before the auto-proxy creator because a BeanPostProcessor or BeanFactoryPostProcessor"
				+ " depends on it (the log then says it \"is not eligible for getting processed by all"
				+ " BeanPostProcessors\"): inject it there lazily (@Lazy or ObjectProvider)";
	}

}
