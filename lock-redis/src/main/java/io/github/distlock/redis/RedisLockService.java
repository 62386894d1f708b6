package io.github.distlock.redis;

import io.github.distlock.LockService;
import io.github.distlock.core.LockEngine;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@link LockService} on one Redis: the {@link LockEngine} over the Redis store.
 * <p>
 * Acquire is one script: {@code SET NX PX} with a fresh 128-bit owner token plus the next
 * fencing token. Release, renewal and hand-over are owner-checked scripts, so a holder
 * whose lease ran out can never touch the next holder's lock. Waiting threads park and
 * are woken by the release: by the local holder directly (who may hand the lock over
 * without freeing it in Redis), or by a message on one shared pub/sub subscription; a
 * bounded, jittered re-check covers lost messages and holders that died. No
 * {@code synchronized} is held around a Redis call.
 */
public class RedisLockService extends LockEngine {

	private final RedisLockStore store;

	/**
	 * @param redis the template the lock's commands run on; its connection factory also
	 * opens the release subscription and, with {@code minReplicas} above 0, the
	 * connections of the replica-acknowledged writes
	 * @param settings key prefix, lease, fencing retention and replication
	 */
	public RedisLockService(StringRedisTemplate redis, RedisLockSettings settings) {
		this(new RedisLockStore(redis, settings), settings);
	}

	private RedisLockService(RedisLockStore store, RedisLockSettings settings) {
		super(store, settings.leaseTime());
		this.store = store;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Then closes the store's own connections.
	 */
	@Override
	public void destroy() {
		try {
			super.destroy();
		}
		finally {
			this.store.close();
		}
	}

}
