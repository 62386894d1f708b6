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

	/**
	 * @param redis the template the lock's commands run on; its connection factory also
	 * opens the release subscription
	 * @param settings key prefix, lease and fencing retention
	 */
	public RedisLockService(StringRedisTemplate redis, RedisLockSettings settings) {
		super(new RedisLockStore(redis, settings), settings.leaseTime());
	}

}
