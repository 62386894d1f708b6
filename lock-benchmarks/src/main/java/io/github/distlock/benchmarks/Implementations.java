package io.github.distlock.benchmarks;

import java.util.List;

import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * Every implementation the harness compares, {@code floor} first: ratios are taken to it.
 */
final class Implementations {

	static final String FLOOR = "floor";
	static final String DISTLOCK = "distlock";

	private Implementations() {
	}

	static List<LockImplementation> all() {
		return List.of(
				new LockImplementation(FLOOR, "raw Lettuce SET NX PX + EVALSHA owner-checked delete, busy retry",
						FloorLockClient::new),
				new LockImplementation("naive",
						"StringRedisTemplate setIfAbsent + Thread.sleep(100) retry + Lua delete", NaiveLockClient::new),
				new LockImplementation("redisson", "Redisson RLock.tryLock(wait), default watchdog",
						RedissonLockClient::new),
				new LockImplementation("si-spin", "Spring Integration RedisLockRegistry, SPIN_LOCK (default)",
						(redis, wait) -> new SpringIntegrationLockClient(redis, wait, RedisLockType.SPIN_LOCK)),
				new LockImplementation("si-pubsub", "Spring Integration RedisLockRegistry, PUB_SUB_LOCK",
						(redis, wait) -> new SpringIntegrationLockClient(redis, wait, RedisLockType.PUB_SUB_LOCK)),
				new LockImplementation(DISTLOCK, "distlock LockService.tryLock, auto-renewed lease",
						DistlockServiceClient::new),
				new LockImplementation("distlock-annotation", "distlock @DistributedLock through the Spring proxy",
						DistlockAnnotationClient::new));
	}

}
