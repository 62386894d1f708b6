package io.github.distlock.autoconfigure;

import io.github.distlock.LockService;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.interceptor.AnnotationLockOperationSource;
import io.github.distlock.interceptor.DistributedLockAdvisor;
import io.github.distlock.interceptor.DistributedLockInterceptor;
import io.github.distlock.interceptor.LockKeyEvaluator;
import io.github.distlock.interceptor.LockOperationSource;
import io.github.distlock.interceptor.UnproxiedLockedBeansCheck;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The infrastructure beans behind
 * {@link io.github.distlock.DistributedLock @DistributedLock} in
 * {@link org.springframework.context.annotation.AdviceMode#PROXY PROXY} mode: operation
 * source, interceptor and advisor, picked up by the auto-proxy creator.
 * <p>
 * The bean methods are static and take only lazy collaborators: advisors are created
 * while bean post-processors are set up, before Redis and ordinary beans should be.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@ConditionalOnBooleanProperty(name = "distributed-lock.enabled", matchIfMissing = true)
@Import(DistributedLockInterceptionConfiguration.AutoProxyRegistrar.class)
final class DistributedLockInterceptionConfiguration extends AbstractDistributedLockConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockOperationSource lockOperationSource(LockKeyEvaluator lockKeyEvaluator, Environment environment) {
		AnnotationLockOperationSource source = new AnnotationLockOperationSource(lockKeyEvaluator);
		source.setFairLocksUnsupported(FairLockSupport.unsupportedReason(environment));
		source.setSharedLocksUnsupported(FairLockSupport.sharedUnsupportedReason(environment));
		return source;
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DistributedLockInterceptor distributedLockInterceptor(LockOperationSource lockOperationSource,
			LockKeyEvaluator lockKeyEvaluator, ObjectProvider<LockService> lockService,
			ObjectProvider<ReactiveLockService> reactiveLockService,
			ObjectProvider<DistributedLockProperties> properties) {
		DistributedLockInterceptor interceptor = new DistributedLockInterceptor(lockOperationSource, lockKeyEvaluator,
				lockService::getObject, () -> properties.getObject().getWaitTime());
		interceptor.setReactiveLockService(reactiveLockService::getIfUnique);
		return interceptor;
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static DistributedLockAdvisor distributedLockAdvisor(LockOperationSource lockOperationSource,
			DistributedLockInterceptor distributedLockInterceptor, Environment environment) {
		DistributedLockAdvisor advisor = new DistributedLockAdvisor(lockOperationSource, distributedLockInterceptor);
		// Bound directly: the properties bean must not be created this early.
		advisor.setOrder(Binder.get(environment)
			.bind("distributed-lock.order", Integer.class)
			.orElse(DistributedLockProperties.DEFAULT_ORDER));
		return advisor;
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static UnproxiedLockedBeansCheck unproxiedLockedBeansCheck(ConfigurableListableBeanFactory beanFactory) {
		return new UnproxiedLockedBeansCheck(beanFactory);
	}

	/**
	 * Makes sure an auto-proxy creator exists even when Boot's AOP auto-configuration is
	 * off; with it on, Boot's (class-proxying) creator is used.
	 */
	static final class AutoProxyRegistrar implements ImportBeanDefinitionRegistrar {

		@Override
		public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}

	}

}
