package io.github.distlock.test;

import io.github.distlock.boot4.test.LocalRedisServerConnectionDetails;
import io.github.distlock.boot4.test.LocalRedisServerContextCustomizerFactory;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;

/**
 * What the kit's tests (in {@code lock-spring-boot-test-common}) need to know of the Boot
 * line they run on: here Boot 4.
 */
final class LineUnderTest {

	/** The line, as {@code META-INF/distlock/boot-line.properties} names it. */
	static final String BOOT_LINE = "4";

	/** This line's kit artifact. */
	static final String KIT = "lock-spring-boot-test";

	/** Spring Boot's Redis connection details on this line. */
	static final Class<?> REDIS_CONNECTION_DETAILS = DataRedisConnectionDetails.class;

	/**
	 * The port of {@code LocalRedisServerPortTests}' server: not a free one, so one of
	 * its own per line, in case both kits' tests run at once.
	 */
	static final int LOCAL_REDIS_PORT = 26853;

	/**
	 * The Redis connection details of a {@link LocalRedisServer @LocalRedisServer}, as
	 * this line's connection details type.
	 */
	static DataRedisConnectionDetails.Standalone standalone(LocalRedisServerDetailsSupport local) {
		return ((LocalRedisServerConnectionDetails) local).getStandalone();
	}

	/** This line's context customizer factory of {@code @LocalRedisServer}. */
	static LocalRedisServerContextCustomizerFactorySupport localRedisServerFactory() {
		return new LocalRedisServerContextCustomizerFactory();
	}

	private LineUnderTest() {
	}

}
