package io.github.distlock.aspectj;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.distlock.interceptor.LockOperation;
import io.github.distlock.interceptor.LockOperationSource;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Binds {@link DistributedLockAspect} to its application context for the context's
 * lifetime, validates every bean's locked methods when the bean is created, and tells the
 * aspect which beans with locked methods are this context's, so that their methods lock
 * through this context while other contexts run in the same class loader.
 * <p>
 * As a bean post-processor it is created before ordinary beans, so the aspect locks even
 * calls made while they are initialised. A bean fails if an annotation is invalid (the
 * operation source says why) or if a locked method was not woven, which would leave it
 * without its lock.
 */
final class DistributedLockAspectBinding implements BeanPostProcessor, InitializingBean, DisposableBean {

	private final AspectJLockSupport support;

	private final LockOperationSource source;

	private final boolean validate;

	/** Whether the aspect is woven into each bean class seen, by class. */
	private final Map<Class<?>, Boolean> wovenClasses = new ConcurrentHashMap<>();

	DistributedLockAspectBinding(AspectJLockSupport support, LockOperationSource source, boolean validate) {
		this.support = support;
		this.source = source;
		this.validate = validate;
	}

	@Override
	public void afterPropertiesSet() {
		DistributedLockAspect.aspectOf().bind(this.support);
	}

	@Override
	public void destroy() {
		DistributedLockAspect.aspectOf().unbind(this.support);
	}

	/**
	 * Checks the bean's locked methods (when locks are enabled), and registers a bean
	 * whose class the aspect is woven into as one of this context's, so that the aspect
	 * locks its methods through this context (or runs them unlocked when locks are
	 * disabled here) while other contexts run in the same class loader.
	 */
	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		Class<?> targetClass = ClassUtils.getUserClass(AopProxyUtils.ultimateTargetClass(bean));
		if (this.validate && this.source.isCandidateClass(targetClass)) {
			checkWoven(targetClass, beanName);
		}
		if (this.wovenClasses.computeIfAbsent(targetClass, DistributedLockAspectBinding::isWoven)) {
			Object target = AopProxyUtils.getSingletonTarget(bean);
			DistributedLockAspect.aspectOf().register((target != null) ? target : bean, this.support);
		}
		return bean;
	}

	private static boolean isWoven(Class<?> type) {
		if (!AnnotationUtils.isCandidateClass(type, WovenByDistributedLockAspect.class)) {
			return false;
		}
		boolean[] woven = new boolean[1];
		ReflectionUtils.doWithMethods(type, (method) -> woven[0] = true,
				(method) -> !woven[0] && method.isAnnotationPresent(WovenByDistributedLockAspect.class));
		return woven[0];
	}

	private void checkWoven(Class<?> targetClass, String beanName) {
		ReflectionUtils.doWithMethods(targetClass, (method) -> {
			LockOperation operation = this.source.getLockOperation(method, targetClass);
			if (operation != null && !operation.method().isAnnotationPresent(WovenByDistributedLockAspect.class)) {
				throw new IllegalStateException("@DistributedLock on " + operation.describeMethod() + " (bean '"
						+ beanName
						+ "') is not woven, so it would run without the lock: in ASPECTJ mode DistributedLockAspect must"
						+ " be woven into " + operation.method().getDeclaringClass().getName() + ", at compile time"
						+ " (io.github.distlock:lock-spring-aspects among the aspect libraries of the AspectJ compiler) or at"
						+ " load time (-javaagent:aspectjweaver.jar, and the class included by the weaver of"
						+ " META-INF/aop.xml)");
			}
		}, (method) -> method.getDeclaringClass() != Object.class);
	}

}
