package io.github.distlock.aspectj;

import io.github.distlock.interceptor.LockOperation;
import io.github.distlock.interceptor.LockOperationSource;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Binds {@link DistributedLockAspect} to its application context for the context's
 * lifetime, and validates every bean's locked methods when the bean is created.
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

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (this.validate) {
			Class<?> targetClass = ClassUtils.getUserClass(AopProxyUtils.ultimateTargetClass(bean));
			if (this.source.isCandidateClass(targetClass)) {
				checkWoven(targetClass, beanName);
			}
		}
		return bean;
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
