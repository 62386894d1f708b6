package io.github.distlock.testsupport;

import java.util.function.Supplier;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
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
public final class RedisClusterExtension extends RedisTopologyExtension<RedisCluster> implements ExecutionCondition {

	/** A cluster from {@link RedisCluster#start()}. */
	public RedisClusterExtension() {
		this(RedisCluster::start);
	}

	/**
	 * A cluster from {@code starter}, e.g.
	 * {@code () -> RedisCluster.builder().arg(...).start()}.
	 */
	public RedisClusterExtension(Supplier<RedisCluster> starter) {
		super(starter, "Redis Cluster");
	}

	/**
	 * Skips the test class, naming what to install, where the {@code redis-server} that
	 * would run is older than 7.0; with {@code CI=true} fails it instead.
	 */
	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		return RedisCluster.REQUIREMENT.missing()
			.map(missing -> ConditionEvaluationResult.disabled(RedisCluster.REQUIREMENT.skipReason(missing)))
			.orElseGet(() -> ConditionEvaluationResult.enabled("redis-server 7.0 or newer"));
	}

	/**
	 * For tests that start a {@link RedisCluster} themselves: skips the calling test,
	 * naming what to install, where the {@code redis-server} that would run is older than
	 * 7.0; with {@code CI=true} fails it instead.
	 */
	public static void assumeClusterSupported() {
		RedisCluster.REQUIREMENT.missing()
			.ifPresent(missing -> Assumptions.abort(RedisCluster.REQUIREMENT.skipReason(missing)));
	}

	/**
	 * The running cluster.
	 * @throws IllegalStateException outside the test class's lifecycle, e.g. when the
	 * field is not static
	 */
	public RedisCluster cluster() {
		return topology();
	}

	/** Same as {@code cluster().nodes()}. */
	public String nodes() {
		return cluster().nodes();
	}

}
