package io.github.distlock.test;

import io.github.distlock.boot3.test.LocalRedisServerConnectionDetails;
import io.github.distlock.boot3.test.LocalRedisServerContextCustomizerFactory;

import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;

/**
 * What the kit's tests (in {@code lock-spring-boot-test-common}) need to know of the Boot
 * line they run on: here Boot 3.5.
 */
final class LineUnderTest {

	/** The line, as {@code META-INF/distlock/boot-line.properties} names it. */
	static final String BOOT_LINE = "3";

	/** This line's kit artifact. */
	static final String KIT = "lock-spring-boot3-test";

	/** Spring Boot's Redis connection details on this line. */
	static final Class<?> REDIS_CONNECTION_DETAILS = RedisConnectionDetails.class;

	/**
	 * The port of {@code LocalRedisServerPortTests}' server: not a free one, so one of
	 * its own per line, in case both kits' tests run at once.
	 */
	static final int LOCAL_REDIS_PORT = 26854;

	/**
	 * The Redis connection details of a {@link LocalRedisServer @LocalRedisServer}, as
	 * this line's connection details type.
	 */
	static RedisConnectionDetails.Standalone standalone(LocalRedisServerDetailsSupport local) {
		return ((LocalRedisServerConnectionDetails) local).getStandalone();
	}

	/** This line's context customizer factory of {@code @LocalRedisServer}. */
	static LocalRedisServerContextCustomizerFactorySupport localRedisServerFactory() {
		return new LocalRedisServerContextCustomizerFactory();
	}

	private LineUnderTest() {
	}

}
