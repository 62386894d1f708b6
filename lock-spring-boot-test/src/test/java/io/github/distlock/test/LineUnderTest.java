package io.github.distlock.test;

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

	private LineUnderTest() {
	}

}
