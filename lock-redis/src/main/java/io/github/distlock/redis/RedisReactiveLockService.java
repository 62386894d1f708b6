package io.github.distlock.redis;

import io.github.distlock.ReactiveLockService;
import io.github.distlock.core.ReactiveLockEngine;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@link ReactiveLockService} on one Redis: the {@link ReactiveLockEngine} over the Redis
 * store, the same scripts and keys as {@link RedisLockService}, so both exclude each
 * other on the same lock ids.
 * <p>
 * On Lettuce's shared native connection (Spring Boot's default) the scripts are sent
 * through Lettuce's asynchronous API and nothing blocks a thread; with
 * {@code minReplicas} above 0 (whose {@code WAIT} blocks a dedicated connection), or with
 * {@code shareNativeConnection=false}, each round trip runs on a thread of the engine's
 * own instead.
 */
public class RedisReactiveLockService extends ReactiveLockEngine {

	private final RedisLockStore store;

	/**
	 * @param redis the template the lock's commands run on; its connection factory also
	 * opens the release subscription
	 * @param settings key prefix, lease, fencing retention and replication
	 */
	public RedisReactiveLockService(StringRedisTemplate redis, RedisLockSettings settings) {
		this(new RedisLockStore(redis, settings), settings);
	}

	private RedisReactiveLockService(RedisLockStore store, RedisLockSettings settings) {
		super(store, settings.leaseTime());
		this.store = store;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Then closes the store's own connections.
	 */
	@Override
	public void close() {
		try {
			super.close();
		}
		finally {
			this.store.close();
		}
	}

}
