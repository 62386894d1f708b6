package io.github.distlock.test;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.data.redis.test.autoconfigure.DataRedisTest;

/**
 * The Boot line's {@code @DataRedisTest}, for the kit's line-neutral tests: Boot 4's, in
 * {@code spring-boot-data-redis-test}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@DataRedisTest
@interface RedisSliceTest {

}
