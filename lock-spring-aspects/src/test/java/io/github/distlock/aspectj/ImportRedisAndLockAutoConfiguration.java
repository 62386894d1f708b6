package io.github.distlock.aspectj;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Imports Spring Boot's Redis auto-configuration and distlock's, of whichever Boot line
 * runs the tests: they run on Boot 4 (here) and on Boot 3.5
 * ({@code lock-spring-aspects-boot3-tests}), whose Redis auto-configurations have
 * different names. The classes are listed, each {@code optional:}, in
 * {@code META-INF/spring/io.github.distlock.aspectj.ImportRedisAndLockAutoConfiguration.imports}.
 *
 * @see LineUnderTest#redisAutoConfiguration()
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ImportAutoConfiguration
@interface ImportRedisAndLockAutoConfiguration {

}
