package io.github.distlock.interceptor;

import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;

/**
 * Applies the {@link DistributedLockInterceptor} to methods annotated with
 * {@link io.github.distlock.DistributedLock @DistributedLock}. Its order decides whether
 * the lock wraps other advice, such as {@code @Transactional}: lower runs outside.
 */
public class DistributedLockAdvisor extends AbstractPointcutAdvisor {

	private static final long serialVersionUID = 1L;

	private final transient Pointcut pointcut;

	private final transient DistributedLockInterceptor interceptor;

	public DistributedLockAdvisor(LockOperationSource source, DistributedLockInterceptor interceptor) {
		this.pointcut = new LockOperationSourcePointcut(source);
		this.interceptor = interceptor;
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

}
