package io.github.distlock.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Connects the application under test to a {@code redis-server} of its own, with no
 * property to write: the {@code @ServiceConnection} experience without Docker. The server
 * is the {@code redis-server} on the {@code PATH}, otherwise the linux-amd64 binary
 * shipped in the {@code embedded-redis} jar; it listens on a free loopback port, keeps
 * nothing on disk, and is registered as Spring Boot's Redis connection details
 * ({@code DataRedisConnectionDetails} on Boot 4, {@code RedisConnectionDetails} on Boot
 * 3.5), so {@code spring.data.redis.host}/{@code port} are not used.
 * <p>
 * One server per application context: it starts when the context is created and stops
 * when the context closes, after the lock service released its locks. Test classes
 * sharing a cached context share its server; a test class that needs a server of its own
 * adds {@code @DirtiesContext}. Inject {@link LocalRedisServerDetailsSupport} (or the
 * line's {@code LocalRedisServerConnectionDetails}, in
 * {@code io.github.distlock.boot4.test} or {@code io.github.distlock.boot3.test}) to
 * reach the server itself (its address, {@code redis-cli}-style commands).
 * <p>
 * For example {@code @SpringBootTest} with {@code @LocalRedisServer}: the whole
 * application on a Redis of its own; {@code @LocalRedisServer(port = 16379)} when
 * something outside the application (a client of your own, a tool) needs a known port.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface LocalRedisServer {

	/**
	 * The port the server listens on, on the loopback interface: 0 (the default) for a
	 * free one. Port 6379 is refused, so that a test never takes over a developer's own
	 * Redis. Test classes with different ports get different application contexts.
	 * @return the port, or 0 for a free one
	 */
	int port() default 0;

}
