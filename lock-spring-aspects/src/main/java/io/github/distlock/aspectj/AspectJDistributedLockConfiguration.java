package io.github.distlock.aspectj;

import io.github.distlock.LockService;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.autoconfigure.AbstractDistributedLockConfiguration;
import io.github.distlock.autoconfigure.DistributedLockProperties;
import io.github.distlock.interceptor.AnnotationLockOperationSource;
import io.github.distlock.interceptor.DistributedLockAdvisor;
import io.github.distlock.interceptor.LockKeyEvaluator;
import io.github.distlock.interceptor.LockOperationSource;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * The infrastructure beans behind
 * {@link io.github.distlock.DistributedLock @DistributedLock} in
 * {@link AdviceMode#ASPECTJ ASPECTJ} mode: an operation source that accepts what weaving
 * reaches, and the binding of {@link DistributedLockAspect} to this application context.
 * No advisor: the woven aspect is the only interception, so no method is locked twice.
 * <p>
 * Imported by {@code @EnableDistributedLock(mode = AdviceMode.ASPECTJ)}, not to be used
 * directly.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
public class AspectJDistributedLockConfiguration extends AbstractDistributedLockConfiguration {

	/** The bean name of the aspect's binding. */
	public static final String BINDING_BEAN_NAME = "distributedLockAspectBinding";

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockOperationSource lockOperationSource(LockKeyEvaluator lockKeyEvaluator) {
		return new AnnotationLockOperationSource(lockKeyEvaluator, AdviceMode.ASPECTJ);
	}

	/**
	 * Static and taking only lazy collaborators: a bean post-processor is created before
	 * ordinary beans, Redis included.
	 */
	@Bean(BINDING_BEAN_NAME)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static DistributedLockAspectBinding distributedLockAspectBinding(LockOperationSource lockOperationSource,
			LockKeyEvaluator lockKeyEvaluator, ObjectProvider<LockService> lockService,
			ObjectProvider<DistributedLockProperties> properties, Environment environment,
			ListableBeanFactory beanFactory) {
		Binder binder = Binder.get(environment);
		if (binder.bind("distributed-lock.order", Integer.class).isBound()) {
			throw new IllegalStateException("distributed-lock.order is set, but it orders the proxy mode's advisor and"
					+ " has no effect in ASPECTJ mode (@EnableDistributedLock(mode = AdviceMode.ASPECTJ)): there the aspect"
					+ " always runs outside Spring's transaction and cache aspects; remove the property");
		}
		String[] advisors = beanFactory.getBeanNamesForType(DistributedLockAdvisor.class, true, false);
		if (advisors.length > 0) {
			throw new IllegalStateException(
					"@EnableDistributedLock(mode = AdviceMode.ASPECTJ) and a DistributedLockAdvisor" + " bean ("
							+ String.join(", ", advisors) + ", the proxy mode) are both configured: every locked method"
							+ " would be locked twice; choose one mode");
		}
		boolean enabled = binder.bind("distributed-lock.enabled", Boolean.class).orElse(true);
		AspectJLockSupport support = new AspectJLockSupport(beanFactory.toString(), enabled, lockOperationSource,
				lockKeyEvaluator, lockService::getObject, () -> properties.getObject().getWaitTime());
		support.setReactiveLockService(() -> beanFactory.getBeanProvider(ReactiveLockService.class).getIfUnique());
		return new DistributedLockAspectBinding(support, lockOperationSource, enabled);
	}

}
