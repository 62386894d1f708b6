package io.github.distlock.redis;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;
import io.github.distlock.store.Unknown;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@link LockStore} on one Redis: the lock scripts of {@link RedisLockCommands} on the keys of
 * {@link LockKeys}, releases announced on the prefix's channel and received by one
 * {@link ReleaseSubscription}. A failure that leaves a command's outcome unknown (see
 * {@link RedisFailures}) is replied as {@link Unknown}; any other is thrown.
 */
final class RedisLockStore implements LockStore {

	/** Lock id and owner of {@link #verify()}: owner tokens are hexadecimal, never this. */
	private static final String SCRIPT_PROBE_LOCK_ID = "distlock.script-probe";

	private static final String SCRIPT_PROBE_OWNER = "probe";

	private final StringRedisTemplate redis;

	private final LockKeys keys;

	private final RedisLockCommands commands;

	RedisLockStore(StringRedisTemplate redis, RedisLockSettings settings) {
		this.redis = redis;
		this.keys = new LockKeys(settings.keyPrefix());
		this.commands = new RedisLockCommands(redis, this.keys.releaseChannel(),
				settings.fencingRetention().toMillis());
	}

	@Override
	public String key(String lockId) {
		return this.keys.lockKey(lockId);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		long reply;
		try {
			reply = this.commands.acquire(key, owner, leaseMillis);
		}
		catch (RuntimeException ex) {
			return unknownOrThrow(ex);
		}
		return (reply > 0) ? new Acquired(reply) : new HeldByOther(-1 - reply);
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		long reply;
		try {
			reply = this.commands.handOver(key, owner, newOwner, leaseMillis, mayStayLocal);
		}
		catch (RuntimeException ex) {
			return unknownOrThrow(ex);
		}
		if (reply > 0) {
			return new Acquired(reply);
		}
		return (reply == -1) ? Released.INSTANCE : NotOwned.INSTANCE;
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		try {
			return this.commands.release(key, owner) ? Released.INSTANCE : NotOwned.INSTANCE;
		}
		catch (RuntimeException ex) {
			return unknownOrThrow(ex);
		}
	}

	@Override
	public ExtendReply extend(String key, String owner, long leaseMillis) {
		try {
			return this.commands.expire(key, owner, leaseMillis) ? Extended.INSTANCE : NotOwned.INSTANCE;
		}
		catch (RuntimeException ex) {
			return unknownOrThrow(ex);
		}
	}

	@Override
	public long remainingLeaseMillis(String key) {
		return Math.max(this.commands.remainingMillis(key), -1);
	}

	@Override
	public void verify() {
		this.commands.release(this.keys.lockKey(SCRIPT_PROBE_LOCK_ID), SCRIPT_PROBE_OWNER);
	}

	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		ReleaseSubscription subscription = new ReleaseSubscription(this.redis.getRequiredConnectionFactory(),
				this.keys.releaseChannel(), listener::released);
		return new ReleaseNotifications() {

			@Override
			public boolean ensureActive(long deadlineNanos) {
				return subscription.ensureActive(deadlineNanos);
			}

			@Override
			public void close() {
				subscription.close();
			}

		};
	}

	private static Unknown unknownOrThrow(RuntimeException failure) {
		if (RedisFailures.leavesOutcomeUnknown(failure)) {
			return new Unknown(failure);
		}
		throw failure;
	}

}
