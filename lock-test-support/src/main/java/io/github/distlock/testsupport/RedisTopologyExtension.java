package io.github.distlock.testsupport;

import java.util.Objects;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What {@link RedisClusterExtension} and {@link RedisSentinelGroupExtension} share: one
 * topology per test class, started before all of its tests and closed after all of them
 * (not by a {@code @Nested} class's lifecycle), and
 * {@linkplain RedisTopology#resetForNextTest() reset} before each test.
 *
 * @param <T> the kind of topology
 */
abstract class RedisTopologyExtension<T extends RedisTopology>
		implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private final Supplier<T> starter;

	/** Names the topology in messages, e.g. {@code Redis Cluster}. */
	private final String kind;

	private volatile T topology;

	/**
	 * The class whose lifecycle started the topology, so a {@code @Nested} class's does
	 * not stop it.
	 */
	private volatile Class<?> owner;

	RedisTopologyExtension(Supplier<T> starter, String kind) {
		this.starter = Objects.requireNonNull(starter, "starter");
		this.kind = kind;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		if (topology != null) {
			return;
		}
		owner = context.getRequiredTestClass();
		topology = Objects.requireNonNull(starter.get(),
				"the starter of " + getClass().getSimpleName() + " returned null");
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		topology().resetForNextTest();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (context.getRequiredTestClass() != owner) {
			return;
		}
		T started = topology;
		topology = null;
		owner = null;
		if (started != null) {
			started.close();
		}
	}

	/**
	 * The running topology.
	 * @throws IllegalStateException outside the test class's lifecycle, e.g. when the
	 * field is not static
	 */
	T topology() {
		T started = topology;
		if (started == null) {
			throw new IllegalStateException("No " + kind + ": " + getClass().getSimpleName()
					+ " starts it before all tests of a class and must be registered with @RegisterExtension"
					+ " on a static field");
		}
		return started;
	}

	@Override
	public String toString() {
		T started = topology;
		return getClass().getSimpleName() + "[" + (started != null ? started : "not started") + "]";
	}

}
