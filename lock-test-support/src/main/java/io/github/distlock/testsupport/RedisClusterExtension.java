package io.github.distlock.testsupport;

import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link RedisCluster} per test class: started before all of its tests and
 * {@linkplain RedisCluster#close() closed} after all of them, also when a test or the
 * class's own set-up failed. Before each test it waits until the cluster is
 * {@linkplain RedisCluster#awaitHealthy() healthy}, restarting any node a previous test
 * killed as a replica, and empties every master with {@code FLUSHALL}, so each test
 * starts from three masters with one replica each (which node is which may have changed).
 *
 * <pre>{@code
 * &#64;RegisterExtension
 * static final RedisClusterExtension cluster = new RedisClusterExtension();
 *
 * &#64;DynamicPropertySource
 * static void redis(DynamicPropertyRegistry registry) {
 *     registry.add("spring.data.redis.cluster.nodes", cluster::nodes);
 * }
 * }</pre>
 *
 * <p>
 * The field must be {@code static}: JUnit calls before-all and after-all callbacks only
 * on extensions registered in static fields.
 */
public final class RedisClusterExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private final Supplier<RedisCluster> starter;

	private volatile RedisCluster cluster;

	/**
	 * The class whose lifecycle started the cluster, so a {@code @Nested} class's does
	 * not stop it.
	 */
	private volatile Class<?> owner;

	/** A cluster from {@link RedisCluster#start()}. */
	public RedisClusterExtension() {
		this(RedisCluster::start);
	}

	/**
	 * A cluster from {@code starter}, e.g.
	 * {@code () -> RedisCluster.builder().arg(...).start()}.
	 */
	public RedisClusterExtension(Supplier<RedisCluster> starter) {
		this.starter = Objects.requireNonNull(starter, "starter");
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		if (cluster != null) {
			return;
		}
		owner = context.getRequiredTestClass();
		cluster = Objects.requireNonNull(starter.get(), "the starter of RedisClusterExtension returned null");
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		RedisCluster started = cluster();
		for (RedisServer node : started.servers()) {
			if (node.isPaused()) {
				node.resume();
			}
		}
		started.awaitHealthy(); // a master killed without waiting: its replica takes over
								// first
		for (RedisServer node : started.servers()) {
			if (!node.isRunning()) {
				started.restartAsReplica(node);
			}
		}
		started.flushAll();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (context.getRequiredTestClass() != owner) {
			return;
		}
		RedisCluster started = cluster;
		cluster = null;
		owner = null;
		if (started != null) {
			started.close();
		}
	}

	/**
	 * The running cluster.
	 * @throws IllegalStateException outside the test class's lifecycle, e.g. when the
	 * field is not static
	 */
	public RedisCluster cluster() {
		RedisCluster started = cluster;
		if (started == null) {
			throw new IllegalStateException("No Redis Cluster: RedisClusterExtension starts it before all tests of"
					+ " a class and must be registered with @RegisterExtension on a static field");
		}
		return started;
	}

	/** Same as {@code cluster().nodes()}. */
	public String nodes() {
		return cluster().nodes();
	}

	@Override
	public String toString() {
		RedisCluster started = cluster;
		return "RedisClusterExtension[" + (started != null ? started : "not started") + "]";
	}

}
