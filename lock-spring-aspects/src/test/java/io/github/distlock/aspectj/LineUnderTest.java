package io.github.distlock.aspectj;

import java.util.List;

import org.springframework.util.ClassUtils;

/**
 * What differs between the Boot lines these tests run on (Boot 4 here, Boot 3.5 in
 * {@code lock-spring-aspects-boot3-tests}), so that the test sources name neither line's
 * classes.
 */
final class LineUnderTest {

	/** Boot 4's, in {@code spring-boot-data-redis}. */
	static final String BOOT_4_REDIS = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration";

	/** Boot 3.5's, in {@code spring-boot-autoconfigure}. */
	static final String BOOT_3_REDIS = "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration";

	private LineUnderTest() {
	}

	/**
	 * Spring Boot's Redis auto-configuration of the running line.
	 * @return the auto-configuration class
	 */
	static Class<?> redisAutoConfiguration() {
		ClassLoader classLoader = LineUnderTest.class.getClassLoader();
		for (String name : List.of(BOOT_4_REDIS, BOOT_3_REDIS)) {
			if (ClassUtils.isPresent(name, classLoader)) {
				return ClassUtils.resolveClassName(name, classLoader);
			}
		}
		throw new IllegalStateException("Neither " + BOOT_4_REDIS + " nor " + BOOT_3_REDIS + " is on the class path");
	}

}
