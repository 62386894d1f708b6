package io.github.distlock.autoconfigure;

import io.github.distlock.autoconfigure.DistributedLockProperties.Web;
import io.github.distlock.web.LockNotAcquiredExceptionHandler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;

/**
 * Auto-configuration of the {@link LockNotAcquiredExceptionHandler}, in Spring MVC and
 * WebFlux applications that opt in with {@code distributed-lock.web.enabled=true}. The
 * same on every Boot line: each line's auto-configuration module lists it in its
 * {@code AutoConfiguration.imports}.
 */
@AutoConfiguration(afterName = { "io.github.distlock.boot4.autoconfigure.DistributedLockAutoConfiguration",
		"io.github.distlock.boot3.autoconfigure.DistributedLockAutoConfiguration" })
@ConditionalOnClass(ProblemDetail.class)
@ConditionalOnWebApplication
@ConditionalOnBooleanProperty("distributed-lock.web.enabled")
@EnableConfigurationProperties(DistributedLockProperties.class)
public final class LockNotAcquiredWebAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockNotAcquiredExceptionHandler lockNotAcquiredExceptionHandler(DistributedLockProperties properties) {
		Web web = properties.getWeb();
		return new LockNotAcquiredExceptionHandler(web.getStatus(), web.getRetryAfter());
	}

}
