package io.github.distlock.benchmarks;

import java.util.List;

import io.github.distlock.LockService;

import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * Every implementation the harness compares on each {@link Topology}, {@code floor}
 * first: ratios are taken to it.
 */
final class Implementations {

	static final String FLOOR = "floor";
	static final String FLOOR_PUBSUB = "floor-pubsub";
	static final String DISTLOCK = "distlock";

	private Implementations() {
	}

	/** On one {@code redis-server}. */
	static List<LockImplementation> single() {
		return List.of(
				new LockImplementation(FLOOR, "raw Lettuce SET NX PX + EVALSHA owner-checked delete, busy retry",
						(redis, wait) -> FloorLockClient.on(redis.server(), wait)),
				new LockImplementation(FLOOR_PUBSUB,
						"raw Lettuce SET NX PX + EVALSHA owner-checked delete that PUBLISHes the release, waiter parked "
								+ "until a release message (one subscription per instance, 100 ms re-check)",
						(redis, wait) -> FloorPubSubLockClient.on(redis.server(), wait)),
				new LockImplementation("naive",
						"StringRedisTemplate setIfAbsent + Thread.sleep(100) retry + Lua delete",
						(redis, wait) -> new NaiveLockClient(redis.server(), wait)),
				new LockImplementation("redisson", "Redisson RLock.tryLock(wait), default watchdog",
						(redis, wait) -> RedissonLockClient.single(redis.server(), wait)),
				new LockImplementation("si-spin", "Spring Integration RedisLockRegistry, SPIN_LOCK (default)",
						(redis, wait) -> new SpringIntegrationLockClient(LettuceFactories.started(redis.server()), wait,
								RedisLockType.SPIN_LOCK)),
				new LockImplementation("si-pubsub", "Spring Integration RedisLockRegistry, PUB_SUB_LOCK",
						(redis, wait) -> new SpringIntegrationLockClient(LettuceFactories.started(redis.server()), wait,
								RedisLockType.PUB_SUB_LOCK)),
				new LockImplementation(DISTLOCK, "distlock LockService.tryLock, auto-renewed lease",
						(redis, wait) -> new DistlockServiceClient(DistlockApplications.onRedis(redis.server(), wait),
								wait)),
				new LockImplementation("distlock-annotation", "distlock @DistributedLock through the Spring proxy",
						(redis, wait) -> new DistlockAnnotationClient(redis.server(), wait)),
				new LockImplementation("distlock-fair",
						"distlock LockService.fair().tryLock (first come, first served), auto-renewed lease",
						(redis, wait) -> DistlockServiceClient.fair(DistlockApplications.onRedis(redis.server(), wait),
								wait)));
	}

	/**
	 * The lock family on one {@code redis-server}: READ locks, semaphores of 3 permits
	 * and locks of two ids at once, distlock's beside Redisson's, with the exclusive lock
	 * of each for reference.
	 */
	static List<LockImplementation> family() {
		return List.of(
				new LockImplementation(FLOOR, "raw Lettuce SET NX PX + EVALSHA owner-checked delete, busy retry",
						(redis, wait) -> FloorLockClient.on(redis.server(), wait)),
				new LockImplementation(DISTLOCK, "distlock LockService.tryLock, auto-renewed lease",
						(redis, wait) -> new DistlockServiceClient(DistlockApplications.onRedis(redis.server(), wait),
								wait)),
				new LockImplementation("redisson", "Redisson RLock.tryLock(wait), default watchdog",
						(redis, wait) -> RedissonLockClient.single(redis.server(), wait)),
				new LockImplementation(DISTLOCK + "-read", "distlock LockService.read().tryLock, auto-renewed lease",
						(redis, wait) -> DistlockServiceClient.view(DistlockApplications.onRedis(redis.server(), wait),
								wait, "bench-read:", LockService::read),
						Integer.MAX_VALUE),
				new LockImplementation("redisson-read", "Redisson RReadWriteLock.readLock().tryLock(wait), watchdog",
						(redis, wait) -> new RedissonFamilyClient(redis.server(), wait, RedissonFamilyClient.Kind.READ,
								0),
						Integer.MAX_VALUE),
				new LockImplementation(DISTLOCK + "-permits",
						"distlock LockService.permits(3).tryLock, auto-renewed lease",
						(redis, wait) -> DistlockServiceClient.view(DistlockApplications.onRedis(redis.server(), wait),
								wait, "bench-permits:", (service) -> service.permits(3)),
						3),
				new LockImplementation("redisson-semaphore",
						"Redisson RPermitExpirableSemaphore of 3 permits, tryAcquire(wait, 30 s lease) + release",
						(redis, wait) -> new RedissonFamilyClient(redis.server(), wait,
								RedissonFamilyClient.Kind.SEMAPHORE, 3),
						3),
				new LockImplementation(DISTLOCK + "-multi", "distlock LockService.tryLockAll of 2 ids, auto-renewed",
						(redis, wait) -> new DistlockMultiKeyClient(DistlockApplications.onRedis(redis.server(), wait),
								wait)),
				new LockImplementation("redisson-multilock", "Redisson RedissonMultiLock of 2 RLocks, watchdog", (redis,
						wait) -> new RedissonFamilyClient(redis.server(), wait, RedissonFamilyClient.Kind.MULTI, 0)));
	}

	/**
	 * The reactive locks on one {@code redis-server}, driven by concurrent subscriptions,
	 * beside the blocking ones of the same libraries, driven by one thread per caller.
	 */
	static List<LockImplementation> reactive() {
		return List.of(
				new LockImplementation(FLOOR, "raw Lettuce SET NX PX + EVALSHA owner-checked delete, busy retry",
						(redis, wait) -> FloorLockClient.on(redis.server(), wait)),
				new LockImplementation(FLOOR + "-reactive",
						"the same through Lettuce's reactive API, busy retry; callers are subscriptions",
						(redis, wait) -> new FloorReactiveLockClient(redis.server(), wait)),
				new LockImplementation(DISTLOCK,
						"distlock LockService.tryLock, auto-renewed lease; callers are threads",
						(redis, wait) -> new DistlockServiceClient(DistlockApplications.onRedis(redis.server(), wait),
								wait)),
				new LockImplementation(DISTLOCK + "-reactive",
						"distlock ReactiveLockService.executeLocked (the auto-configured ReactiveLockEngine over the Redis store), "
								+ "auto-renewed lease; callers are subscriptions",
						(redis, wait) -> new DistlockReactiveClient(DistlockApplications.onRedis(redis.server(), wait),
								wait)),
				new LockImplementation("redisson",
						"Redisson RLock.tryLock(wait), default watchdog; callers are threads",
						(redis, wait) -> RedissonLockClient.single(redis.server(), wait)),
				new LockImplementation("redisson-reactive",
						"Redisson RLockReactive tryLock(wait, -1, unit, threadId) + unlock(threadId), a new thread id "
								+ "per acquisition, watchdog; callers are subscriptions",
						(redis, wait) -> new RedissonReactiveLockClient(redis.server(), wait)));
	}

	/** On a Redis Cluster of 3 masters and 3 replicas. */
	static List<LockImplementation> cluster() {
		return List.of(
				new LockImplementation(FLOOR,
						"raw Lettuce cluster client SET NX PX + EVALSHA owner-checked delete, busy retry",
						(redis, wait) -> FloorLockClient.onCluster(redis.cluster(), wait)),
				new LockImplementation("redisson", "Redisson RLock.tryLock(wait), default watchdog, useClusterServers",
						(redis, wait) -> RedissonLockClient.cluster(redis.cluster(), wait)),
				new LockImplementation("si-spin",
						"Spring Integration RedisLockRegistry, SPIN_LOCK (default), LettuceConnectionFactory in cluster mode",
						(redis, wait) -> new SpringIntegrationLockClient(LettuceFactories.started(redis.cluster()),
								wait, RedisLockType.SPIN_LOCK)),
				new LockImplementation("si-pubsub",
						"Spring Integration RedisLockRegistry, PUB_SUB_LOCK, LettuceConnectionFactory in cluster mode",
						(redis, wait) -> new SpringIntegrationLockClient(LettuceFactories.started(redis.cluster()),
								wait, RedisLockType.PUB_SUB_LOCK)),
				new LockImplementation(DISTLOCK,
						"distlock LockService.tryLock, auto-renewed lease, spring.data.redis.cluster.nodes",
						(redis, wait) -> new DistlockServiceClient(
								DistlockApplications.onCluster(redis.cluster(), wait), wait)),
				new LockImplementation(DISTLOCK + "-min-replicas",
						"distlock as above with distributed-lock.replication.min-replicas=1 (WAIT 1 after each "
								+ "acquisition and hand-over)",
						(redis, wait) -> new DistlockServiceClient(
								DistlockApplications.onCluster(redis.cluster(), wait, 1), wait)));
	}

	/** On 5 independent masters. */
	static List<LockImplementation> quorum() {
		return List.of(
				new LockImplementation(FLOOR,
						"the single-node floor on the first node only (not a quorum lock): raw Lettuce SET NX PX + "
								+ "EVALSHA owner-checked delete, busy retry",
						(redis, wait) -> FloorLockClient.on(redis.server(), wait)),
				new LockImplementation(DISTLOCK,
						"distlock LockService.tryLock on the single-Redis store, first node only (for comparison)",
						(redis, wait) -> new DistlockServiceClient(DistlockApplications.onRedis(redis.server(), wait),
								wait)),
				new LockImplementation(DISTLOCK + "-quorum",
						"distlock LockService.tryLock, distributed-lock.store=quorum over the 5 nodes",
						(redis, wait) -> new DistlockServiceClient(
								DistlockApplications.onQuorum(redis.quorumNodes(), wait), wait)),
				new LockImplementation("redisson-multilock",
						"Redisson RedissonMultiLock over one RedissonClient per node (all 5 must be held), "
								+ "default watchdog",
						(redis, wait) -> new RedissonQuorumLockClient(redis.quorumNodes(), wait, false)),
				new LockImplementation("redisson-redlock",
						"Redisson RedissonRedLock (deprecated) over one RedissonClient per node (a majority), "
								+ "default watchdog",
						(redis, wait) -> new RedissonQuorumLockClient(redis.quorumNodes(), wait, true)));
	}

}
