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

	/**
	 * distlock's auto-configuration of Boot 4, in {@code lock-spring-boot-autoconfigure}.
	 */
	static final String BOOT_4_LOCKS = "io.github.distlock.boot4.autoconfigure.DistributedLockAutoConfiguration";

	/**
	 * distlock's auto-configuration of Boot 3.5, in
	 * {@code lock-spring-boot3-autoconfigure}.
	 */
	static final String BOOT_3_LOCKS = "io.github.distlock.boot3.autoconfigure.DistributedLockAutoConfiguration";

	private LineUnderTest() {
	}

	/**
	 * distlock's auto-configuration of the running line.
	 * @return the auto-configuration class
	 */
	static Class<?> lockAutoConfiguration() {
		return firstPresent(BOOT_4_LOCKS, BOOT_3_LOCKS);
	}

	/**
	 * Spring Boot's Redis auto-configuration of the running line.
	 * @return the auto-configuration class
	 */
	static Class<?> redisAutoConfiguration() {
		return firstPresent(BOOT_4_REDIS, BOOT_3_REDIS);
	}

	private static Class<?> firstPresent(String boot4, String boot3) {
		ClassLoader classLoader = LineUnderTest.class.getClassLoader();
		for (String name : List.of(boot4, boot3)) {
			if (ClassUtils.isPresent(name, classLoader)) {
				return ClassUtils.resolveClassName(name, classLoader);
			}
		}
		throw new IllegalStateException("Neither " + boot4 + " nor " + boot3 + " is on the class path");
	}

}
