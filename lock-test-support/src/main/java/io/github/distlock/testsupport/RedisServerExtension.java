package io.github.distlock.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link RedisServer} per test class: started before all of its tests, emptied with
 * {@code FLUSHALL} before each test (unless {@link #withoutFlushing()}), and
 * {@linkplain RedisServer#close() closed} after all of them, also when a test or the
 * class's own set-up failed.
 *
 * <pre>{@code
 * &#64;RegisterExtension
 * static final RedisServerExtension redis = new RedisServerExtension();
 *
 *

&#64;RegisterExtension
 * static final RedisServerExtension clusterNode =
 *         new RedisServerExtension(() -> RedisServer.builder().arg("cluster-enabled", "yes").start());
 * }</pre>
 *
 * <p>
 * The field must be {@code static}: JUnit calls before-all and after-all callbacks only
 * on extensions registered in static fields. Extensions run their before-each callbacks
 * before the class's {@code @BeforeEach} methods, so the server is already empty there.
 */
public final class RedisServerExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private final Supplier<RedisServer> starter;

	private final boolean flushBeforeEach;

	private volatile RedisServer server;

	/**
	 * The class whose lifecycle started the server, so a {@code @Nested} class's
	 * after-all does not stop it.
	 */
	private volatile Class<?> owner;

	/** A server from {@link RedisServer#start()}. */
	public RedisServerExtension() {
		this(RedisServer::start);
	}

	/**
	 * A server from {@code starter}, e.g.
	 * {@code () -> RedisServer.builder().aclUser(...).start()}.
	 */
	public RedisServerExtension(Supplier<RedisServer> starter) {
		this(starter, true);
	}

	private RedisServerExtension(Supplier<RedisServer> starter, boolean flushBeforeEach) {
		this.starter = Objects.requireNonNull(starter, "starter");
		this.flushBeforeEach = flushBeforeEach;
	}

	/**
	 * The same, but keeping the data between tests (for classes whose tests do not need
	 * an empty server).
	 */
	public RedisServerExtension withoutFlushing() {
		return new RedisServerExtension(starter, false);
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		if (server != null) {
			return; // a @Nested class: its enclosing class started the server and stops
					// it
		}
		owner = context.getRequiredTestClass();
		server = Objects.requireNonNull(starter.get(), "the starter of RedisServerExtension returned null");
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		if (flushBeforeEach) {
			server().flushAll();
		}
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (context.getRequiredTestClass() != owner) {
			return;
		}
		RedisServer started = server;
		server = null;
		owner = null;
		if (started != null) {
			started.close();
		}
	}

	/**
	 * The running server.
	 * @throws IllegalStateException outside the test class's lifecycle, e.g. when the
	 * field is not static
	 */
	public RedisServer server() {
		RedisServer started = server;
		if (started == null) {
			throw new IllegalStateException("No Redis server: RedisServerExtension starts it before all tests of"
					+ " a class and must be registered with @RegisterExtension on a static field");
		}
		return started;
	}

	/** Same as {@code server().host()}. */
	public String host() {
		return server().host();
	}

	/** Same as {@code server().port()}. */
	public int port() {
		return server().port();
	}

	/** Same as {@code server().command(args)}. */
	public String command(String... args) {
		return server().command(args);
	}

	/** Same as {@code server().command(timeout, args)}. */
	public String command(Duration timeout, String... args) {
		return server().command(timeout, args);
	}

	/** Same as {@code server().keys(pattern)}. */
	public List<String> keys(String pattern) {
		return server().keys(pattern);
	}

	@Override
	public String toString() {
		RedisServer started = server;
		return "RedisServerExtension[" + (started != null ? started : "not started") + "]";
	}

}
