package io.github.distlock.testsupport;

import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link RedisSentinelGroup} per test class: started before all of its tests and
 * {@linkplain RedisSentinelGroup#close() closed} after all of them, also when a test or
 * the class's own set-up failed. Before each test it resumes paused nodes, restarts any
 * data node a previous test killed as a replica, waits until the group is
 * {@linkplain RedisSentinelGroup#awaitHealthy() healthy} and empties the master with
 * {@code FLUSHALL}, so each test starts from a master with two replicas (which node is
 * the master may have changed).
 *
 * <pre>{@code
 * &#64;RegisterExtension
 * static final RedisSentinelGroupExtension sentinel = new RedisSentinelGroupExtension();
 *
 * &#64;DynamicPropertySource
 * static void redis(DynamicPropertyRegistry registry) {
 *     registry.add("spring.data.redis.sentinel.master", sentinel::masterName);
 *     registry.add("spring.data.redis.sentinel.nodes", sentinel::sentinelNodes);
 * }
 * }</pre>
 *
 * <p>
 * The field must be {@code static}: JUnit calls before-all and after-all callbacks only
 * on extensions registered in static fields.
 */
public final class RedisSentinelGroupExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

	private final Supplier<RedisSentinelGroup> starter;

	private volatile RedisSentinelGroup group;

	/**
	 * The class whose lifecycle started the group, so a {@code @Nested} class's does not
	 * stop it.
	 */
	private volatile Class<?> owner;

	/** A group from {@link RedisSentinelGroup#start()}. */
	public RedisSentinelGroupExtension() {
		this(RedisSentinelGroup::start);
	}

	/**
	 * A group from {@code starter}, e.g.
	 * {@code () -> RedisSentinelGroup.builder().arg(...).start()}.
	 */
	public RedisSentinelGroupExtension(Supplier<RedisSentinelGroup> starter) {
		this.starter = Objects.requireNonNull(starter, "starter");
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		if (group != null) {
			return;
		}
		owner = context.getRequiredTestClass();
		group = Objects.requireNonNull(starter.get(), "the starter of RedisSentinelGroupExtension returned null");
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		RedisSentinelGroup started = group();
		for (RedisServer node : started.servers()) {
			if (node.isPaused()) {
				node.resume();
			}
		}
		started.awaitHealthy();
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
		RedisSentinelGroup started = group;
		group = null;
		owner = null;
		if (started != null) {
			started.close();
		}
	}

	/**
	 * The running group.
	 * @throws IllegalStateException outside the test class's lifecycle, e.g. when the
	 * field is not static
	 */
	public RedisSentinelGroup group() {
		RedisSentinelGroup started = group;
		if (started == null) {
			throw new IllegalStateException("No Sentinel group: RedisSentinelGroupExtension starts it before all tests"
					+ " of a class and must be registered with @RegisterExtension on a static field");
		}
		return started;
	}

	/** Same as {@code group().masterName()}. */
	public String masterName() {
		return group().masterName();
	}

	/** Same as {@code group().sentinelNodes()}. */
	public String sentinelNodes() {
		return group().sentinelNodes();
	}

	@Override
	public String toString() {
		RedisSentinelGroup started = group;
		return "RedisSentinelGroupExtension[" + (started != null ? started : "not started") + "]";
	}

}
