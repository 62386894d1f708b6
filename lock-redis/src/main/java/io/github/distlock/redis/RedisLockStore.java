package io.github.distlock.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.AsyncLockStore;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.FencingTokenReply;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.NotReplicated;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;
import io.github.distlock.store.SharedLockConflictException;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.DurationText;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The locks in Redis (standalone, a master with replicas behind Sentinel, or a Redis
 * Cluster), one atomic Lua script per operation (see {@link LockScripts}), with releases
 * of contended locks announced by pub/sub.
 * <p>
 * A lock id becomes the key {@code <prefix>{<encoded id>}} (see {@link LockKeys}); its
 * last fencing token lives next to it in {@code <key>:fence} for the fencing retention.
 * All keys of a lock share its hash slot, so every script runs on one cluster node.
 * Releases are announced on the one channel {@code <prefix>released}; on a Redis Cluster
 * reached with Lettuce, on each lock's own shard channel {@code <key>:notify} by sharded
 * pub/sub instead (see {@link ShardedReleaseSubscription}), so a release reaches only the
 * shard of the lock and the instances waiting for it. Fencing tokens come from the
 * server's clock ({@code max(TIME in microseconds, last + 1)}).
 * <p>
 * A command fails with {@link Unknown} when its outcome is unknown (see
 * {@link RedisFailures}); any other failure (for example an ACL's {@code NOPERM}) is
 * thrown as Spring's {@code DataAccessException}.
 * <p>
 * Without replicas waited for, a fresh acquisition issues no fencing token: the holder
 * that reads it asks {@link #issueFencingToken} (see {@link LockScripts}).
 * <p>
 * With {@code minReplicas} above 0 an acquire or hand-over that wrote a new owner is
 * followed by {@code WAIT minReplicas timeout} on the connection that ran the script (see
 * {@link ReplicaAcknowledgedWrites}: connections of the store's own, never the shared
 * one). Fewer acknowledgements remove the lock again with the release script and answer
 * {@link NotReplicated}. Releases do not wait; renewals only when asked to. Needs
 * Lettuce; the store's connections are closed by {@link #close()}.
 */
public final class RedisLockStore implements LockStore, AutoCloseable {

	/** Lock id and owner of {@link #verify()}: owner tokens are hexadecimal. */
	private static final String PROBE_LOCK_ID = "distlock.script-probe";

	private static final String PROBE_OWNER = "probe";

	private final StringRedisTemplate redis;

	private final LockKeys keys;

	private final RedisLockCommands commands;

	/** The writes that wait for replicas, and what the store answers after them. */
	private final @Nullable ReplicaAcknowledgedReplies replicated;

	/** Whether releases are announced per lock by sharded pub/sub (Cluster, Lettuce). */
	private final boolean sharded;

	private final RedisLeaseRenewals renewals;

	/**
	 * A store with the key prefix, fencing retention and replication of {@code settings}
	 * (its lease time is the engine's business).
	 * @param redis the template of the Redis holding the locks
	 * @param settings the settings
	 * @throws IllegalArgumentException when replicas are to be waited for and the
	 * template's connection factory is not Lettuce's
	 */
	public RedisLockStore(StringRedisTemplate redis, RedisLockSettings settings) {
		this(redis, settings.keyPrefix(), settings.fencingRetention(), ReplicaAcknowledgedWrites.of(redis, settings),
				settings.replicatedRenewals(), true);
	}

	/**
	 * A store on {@code redis}.
	 * @param redis the template of the Redis holding the locks
	 * @param keyPrefix prefix of every key and channel the store writes; non-empty, no
	 * braces
	 * @param fencingRetention how long the last fencing token of a lock is kept after its
	 * last acquisition, at least 1 ms
	 */
	public RedisLockStore(StringRedisTemplate redis, String keyPrefix, Duration fencingRetention) {
		this(redis, keyPrefix, fencingRetention, null, false, true);
	}

	/** A quorum node's store: its acquisitions issue their token at once. */
	static RedisLockStore quorumNode(StringRedisTemplate redis, String keyPrefix, Duration fencingRetention) {
		return new RedisLockStore(redis, keyPrefix, fencingRetention, null, false, false);
	}

	private RedisLockStore(StringRedisTemplate redis, String keyPrefix, Duration fencingRetention,
			@Nullable ReplicaAcknowledgedWrites replicated, boolean replicatedRenewals, boolean tokensOnRead) {
		if (redis == null) {
			throw new IllegalArgumentException("redis must not be null");
		}
		if (keyPrefix == null) {
			throw new IllegalArgumentException("keyPrefix must not be null");
		}
		if (fencingRetention == null || fencingRetention.compareTo(Duration.ofMillis(1)) < 0) {
			throw new IllegalArgumentException(
					"fencingRetention must be at least 1ms, but was " + DurationText.of(fencingRetention));
		}
		this.redis = redis;
		this.keys = new LockKeys(keyPrefix);
		this.sharded = RedisReleaseNotifications.sharded(redis.getRequiredConnectionFactory());
		this.commands = new RedisLockCommands(redis, this.keys.releaseChannel(), fencingRetention.toMillis(),
				this.sharded, tokensOnRead && replicated == null);
		this.replicated = (replicated != null) ? new ReplicaAcknowledgedReplies(replicated, this.commands) : null;
		this.renewals = new RedisLeaseRenewals(this.commands, replicatedRenewals ? this.replicated : null,
				this.sharded);
	}

	@Override
	public String key(String lockId) {
		return this.keys.lockKey(lockId);
	}

	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis) {
		if (this.replicated != null) {
			return this.replicated.acquire(key, owner, leaseMillis);
		}
		try {
			return ScriptReplies.acquireReply(this.commands.acquire(key, owner, leaseMillis));
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	/**
	 * {@inheritDoc} One owner-checked script ({@link LockScripts#ISSUE_FENCING_TOKEN}).
	 */
	@Override
	public FencingTokenReply issueFencingToken(String key, String owner) {
		try {
			long token = this.commands.issueFencingToken(key, owner);
			return (token > 0) ? new Acquired(token) : NotOwned.INSTANCE;
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Not with replicas waited for (then {@code waitMillis} is ignored): a grant is
	 * written by a release, which does not wait. The uncontended first attempt of an
	 * acquisition runs the plain acquire script; only attempts with a wait queue.
	 */
	@Override
	public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
		if (this.replicated != null || waitMillis <= 0) {
			return acquire(key, owner, leaseMillis);
		}
		try {
			return ScriptReplies.acquireReply(this.commands.acquireQueued(key, owner, leaseMillis, waitMillis));
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	/**
	 * {@inheritDoc} Not with replicas waited for: a release, writing grants, never waits.
	 */
	@Override
	public boolean supportsFairLocks() {
		return this.replicated == null;
	}

	/** {@inheritDoc} 2 s: longer than a fair waiter's fallback re-check. */
	@Override
	public long grantLeaseMillis() {
		return supportsFairLocks() ? RedisLockCommands.GRANT_LEASE_MILLIS : 0;
	}

	/** {@inheritDoc} As fair locks: not with {@code minReplicas} above 0. */
	@Override
	public boolean supportsSharedLocks() {
		return supportsFairLocks();
	}

	@Override
	public AcquireReply acquireShared(String key, String owner, int permits, long leaseMillis) {
		if (!supportsSharedLocks()) {
			throw new UnsupportedOperationException("Shared locks need distributed-lock.replication.min-replicas=0");
		}
		try {
			long reply = this.commands.acquireShared(key, owner, permits, leaseMillis);
			return ScriptReplies.sharedAcquireReply(reply, key, permits, () -> this.commands.sharedPermits(key));
		}
		catch (SharedLockConflictException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	@Override
	public AcquireReply acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		if (this.replicated != null) {
			throw new UnsupportedOperationException("Fair locks need distributed-lock.replication.min-replicas=0");
		}
		try {
			return ScriptReplies.acquireReply(this.commands.acquireFair(key, owner, leaseMillis, waitMillis));
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal) {
		return handOver(key, owner, newOwner, leaseMillis, mayStayLocal, null);
	}

	@Override
	public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal,
			@Nullable String newOwnerQueuedAs) {
		if (this.replicated != null) {
			return this.replicated.handOver(key, owner, newOwner, leaseMillis, mayStayLocal);
		}
		try {
			return ScriptReplies.handOverReply(this.commands.handOver(key, owner, newOwner, leaseMillis, mayStayLocal,
					(newOwnerQueuedAs != null) ? newOwnerQueuedAs : ""));
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	@Override
	public ReleaseReply release(String key, String owner) {
		return release(key, owner, false);
	}

	@Override
	public ReleaseReply withdraw(String key, String owner) {
		return release(key, owner, true);
	}

	private ReleaseReply release(String key, String owner, boolean withdraw) {
		try {
			return this.commands.release(key, owner, withdraw) ? Released.INSTANCE : NotOwned.INSTANCE;
		}
		catch (RuntimeException ex) {
			return ScriptReplies.unknownOrThrow(ex);
		}
	}

	/**
	 * {@inheritDoc} With replicated renewals, a lease reset too few replicas acknowledged
	 * answers {@link Unknown}: a promoted replica could still have the shorter lease.
	 */
	@Override
	public ExtendReply extend(String key, String owner, long leaseMillis) {
		return this.renewals.extendAll(List.of(new LeaseReset(key, owner, leaseMillis))).get(0);
	}

	/** {@inheritDoc} One script per 50 locks (per hash slot on a cluster), pipelined. */
	@Override
	public List<ExtendReply> extendAll(List<LeaseReset> resets) {
		return this.renewals.extendAll(resets);
	}

	/** {@inheritDoc} Lettuce's async API, without replicas waited for. */
	@Override
	public AsyncLockStore async(Executor blockingCalls) {
		return RedisAsyncLockStore.of(this, this.commands, this.renewals, this.replicated != null, blockingCalls);
	}

	/**
	 * {@inheritDoc} One {@code PTTL}. A lock key without expiry was not written by this
	 * store (set by hand?): held, never running out, {@link Long#MAX_VALUE}.
	 */
	@Override
	public long remainingLeaseMillis(String key) {
		long ttl = this.commands.remainingMillis(key);
		if (ttl == -1) {
			return Long.MAX_VALUE;
		}
		return (ttl >= 0) ? ttl : -1;
	}

	/** Who holds {@code key} and for how long, in one round trip (for the quorum). */
	QuorumHolds.NodeHold hold(String key) {
		return this.commands.hold(key);
	}

	/**
	 * {@inheritDoc} Runs the release script on the key of lock id {@value #PROBE_LOCK_ID}
	 * with an owner no token can be: needs {@code EVALSHA} (or {@code EVAL}), the key
	 * prefix and the release channel.
	 * @throws org.springframework.dao.DataAccessException when the script cannot run
	 */
	@Override
	public void verify() {
		this.commands.release(this.keys.lockKey(PROBE_LOCK_ID), PROBE_OWNER);
	}

	/**
	 * {@inheritDoc} Each call subscribes on a dedicated connection when the first waiter
	 * asks ({@link ReleaseNotifications#ensureActive}); the listener runs on Lettuce's
	 * I/O thread. With other clients nothing is subscribed ({@code ensureActive}: false).
	 */
	@Override
	public ReleaseNotifications subscribe(ReleaseListener listener) {
		if (listener == null) {
			throw new IllegalArgumentException("listener must not be null");
		}
		return RedisReleaseNotifications.subscribe(this.redis.getRequiredConnectionFactory(),
				this.keys.releaseChannel(), this.sharded, listener);
	}

	/**
	 * Closes the store's own connections (those of replica-acknowledged writes), if any.
	 * The template's connection factory is its owner's to close.
	 */
	@Override
	public void close() {
		if (this.replicated != null) {
			this.replicated.writes().close();
		}
	}

}
