package io.github.distlock.test;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.autoconfigure.data.redis.DataRedisTest;

/**
 * The Boot line's {@code @DataRedisTest}, for the kit's line-neutral tests: Boot 3.5's,
 * in {@code spring-boot-test-autoconfigure}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@DataRedisTest
@interface RedisSliceTest {

}
