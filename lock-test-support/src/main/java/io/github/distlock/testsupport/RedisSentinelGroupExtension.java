package io.github.distlock.testsupport;

import java.util.function.Supplier;

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
public final class RedisSentinelGroupExtension extends RedisTopologyExtension<RedisSentinelGroup> {

	/** A group from {@link RedisSentinelGroup#start()}. */
	public RedisSentinelGroupExtension() {
		this(RedisSentinelGroup::start);
	}

	/**
	 * A group from {@code starter}, e.g.
	 * {@code () -> RedisSentinelGroup.builder().arg(...).start()}.
	 */
	public RedisSentinelGroupExtension(Supplier<RedisSentinelGroup> starter) {
		super(starter, "Sentinel group");
	}

	/**
	 * The running group.
	 * @throws IllegalStateException outside the test class's lifecycle, e.g. when the
	 * field is not static
	 */
	public RedisSentinelGroup group() {
		return topology();
	}

	/** Same as {@code group().masterName()}. */
	public String masterName() {
		return group().masterName();
	}

	/** Same as {@code group().sentinelNodes()}. */
	public String sentinelNodes() {
		return group().sentinelNodes();
	}

}
