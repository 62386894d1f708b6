package io.github.distlock.redis;

import io.github.distlock.core.LockEngine;
import io.github.distlock.core.ReactiveLockEngine;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The engines over a {@link RedisLockStore}, composed as the Redis configuration of
 * {@code lock-spring-boot-support} composes them, for tests without Spring: each owns its
 * store and closes it after the engine shut down (in an application the store is a bean
 * of its own, closed after the engines).
 */
public final class RedisEngines {

	private RedisEngines() {
	}

	/**
	 * The blocking engine over a store of its own.
	 * @param redis the template the store's commands run on
	 * @param settings the store's settings; the engine's lease is theirs
	 * @return the engine, closing the store when destroyed
	 */
	public static LockEngine blocking(StringRedisTemplate redis, RedisLockSettings settings) {
		RedisLockStore store = new RedisLockStore(redis, settings);
		return new LockEngine(store, settings.leaseTime()) {

			@Override
			public void destroy() {
				try {
					super.destroy();
				}
				finally {
					store.close();
				}
			}

		};
	}

	/**
	 * The reactive engine over a store of its own.
	 * @param redis the template the store's commands run on
	 * @param settings the store's settings; the engine's lease is theirs
	 * @return the engine, closing the store when closed
	 */
	public static ReactiveLockEngine reactive(StringRedisTemplate redis, RedisLockSettings settings) {
		RedisLockStore store = new RedisLockStore(redis, settings);
		return new ReactiveLockEngine(store, settings.leaseTime()) {

			@Override
			public void close() {
				try {
					super.close();
				}
				finally {
					store.close();
				}
			}

		};
	}

}
