package io.github.distlock.redis;

import java.util.ArrayList;
import java.util.List;

import io.github.distlock.store.LeaseReset;
import io.github.distlock.support.LogSafe;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The Redis round trips of the lock, one method per script, on a
 * {@link StringRedisTemplate}'s Redis (the scripts run as {@link LockScriptRunner} says).
 * Knows keys and arguments, nothing about local state. A release costs one round trip and
 * one script, which also writes the release receipt (one {@code SET} more inside it). A
 * fresh acquisition issues its fencing token only when the commands were built to do so
 * (or the call asks: the reactive API); otherwise the token costs a round trip of its own
 * ({@link #issueFencingToken}), paid only by the holders that read it. On a Redis Cluster
 * ({@code sharded}) releases are announced on each lock's own shard channel, elsewhere on
 * the one release channel.
 */
final class RedisLockCommands {

	private final StringRedisTemplate redis;

	/** How the scripts are run: see {@link LockScriptRunner#of}. */
	private final LockScriptRunner scripts;

	private final String releaseChannel;

	private final boolean sharded;

	/** Life of a fence key after the last token issued. */
	private final String fencingRetentionMillis;

	/** Life of a release receipt after its last line ({@link ReceiptRetention}). */
	private final String receiptRetentionMillis;

	/**
	 * The last server time at which an acquire may change anything, sent with each one
	 * (see {@link AcquireDeadline}): no later than the receipt of its clean-up lives.
	 */
	private final AcquireDeadline deadline;

	/** "1" when fresh acquisitions issue their token, "0" when it is issued on read. */
	private final String issueNow;

	/** The lease of a grant to a queue entry that records none: see below. */
	private final String grantLeaseMillis = Long.toString(GRANT_LEASE_MILLIS);

	/**
	 * The lease of a lock granted to the head of its queue when the entry records no
	 * lease of its own: an entry written by a client before queue entries recorded the
	 * lease asked for, which claims (or confirms) the grant within this time. Longer than
	 * a waiter's fallback re-check (at most 1 s), so a lost grant announcement does not
	 * lose the grant. Entries written by this version record their lease, and a grant to
	 * them carries it.
	 */
	static final long GRANT_LEASE_MILLIS = 2000;

	/**
	 * Commands announcing releases on the one {@code releaseChannel} (standalone Redis
	 * and Sentinel).
	 */
	RedisLockCommands(StringRedisTemplate redis, String releaseChannel, long fencingRetentionMillis) {
		this(redis, releaseChannel, fencingRetentionMillis, false);
	}

	/**
	 * @param fencingRetentionMillis how long a fence key lives after the last token
	 * issued, and at most how long a release receipt lives ({@link ReceiptRetention})
	 * @param sharded whether releases are announced by {@code SPUBLISH} on the lock's
	 * shard channel (Redis Cluster) instead of {@code PUBLISH} on {@code releaseChannel}
	 */
	RedisLockCommands(StringRedisTemplate redis, String releaseChannel, long fencingRetentionMillis, boolean sharded) {
		this(redis, releaseChannel, fencingRetentionMillis, sharded, false);
	}

	/**
	 * @param tokensOnRead whether {@link #acquire(String, String, long)} and
	 * {@link #acquireQueued} leave the token of a fresh acquisition for the first read
	 * ({@link #issueFencingToken}), answering 0
	 */
	RedisLockCommands(StringRedisTemplate redis, String releaseChannel, long fencingRetentionMillis, boolean sharded,
			boolean tokensOnRead) {
		this.issueNow = tokensOnRead ? "0" : "1";
		this.redis = redis;
		this.scripts = LockScriptRunner.of(redis);
		this.releaseChannel = releaseChannel;
		this.sharded = sharded;
		this.fencingRetentionMillis = Long.toString(fencingRetentionMillis);
		long receiptRetention = ReceiptRetention.of(redis.getRequiredConnectionFactory(), fencingRetentionMillis);
		this.receiptRetentionMillis = Long.toString(receiptRetention);
		this.deadline = AcquireDeadline.of(redis, receiptRetention);
	}

	/**
	 * @return the fencing token (&gt; 0), 0 when acquired with the token issued on read,
	 * or {@code -1 - remaining lease ms} of the holder
	 */
	long acquire(String key, String owner, long leaseMillis) {
		return settled(run(acquireCall(key, owner, leaseMillis, false, notAfter())));
	}

	/**
	 * @return the next fencing token (&gt; 0) if {@code owner} holds the lock, else 0
	 */
	long issueFencingToken(String key, String owner) {
		return run(new ScriptCall(LockScripts.ISSUE_FENCING_TOKEN, List.of(key, LockKeys.fenceKey(key)),
				List.of(owner, this.fencingRetentionMillis)));
	}

	/**
	 * {@link #acquire(String, String, long)} on a connection of {@code replicated}, which
	 * waits for the replicas when the lock was acquired.
	 */
	ReplicaAcknowledgedWrites.Written acquire(ReplicaAcknowledgedWrites replicated, String key, String owner,
			long leaseMillis) {
		ReplicaAcknowledgedWrites.Written written = replicated
			.write(acquireCall(key, owner, leaseMillis, false, notAfter()), (reply) -> reply >= 0);
		settled(written.reply());
		return written;
	}

	/**
	 * {@link #acquire(String, String, long)} that queues {@code owner} for
	 * {@code waitMillis} (&gt; 0) when the lock is held by another owner.
	 * @return the fencing token (&gt; 0), or {@code -1 - remaining lease ms} of the
	 * holder
	 */
	long acquireQueued(String key, String owner, long leaseMillis, long waitMillis) {
		return settled(run(acquireQueuedCall(key, owner, leaseMillis, waitMillis, false, notAfter())));
	}

	/**
	 * @param issueNow whether a fresh acquisition issues its token whatever the commands'
	 * setting (the reactive API, whose holders read it without blocking)
	 * @param notAfter from {@link #notAfter()}, just before sending
	 */
	ScriptCall acquireQueuedCall(String key, String owner, long leaseMillis, long waitMillis, boolean issueNow,
			String notAfter) {
		return new ScriptCall(QueueScripts.ACQUIRE_QUEUED,
				List.of(key, LockKeys.fenceKey(key), LockKeys.queueKey(key), LockKeys.waitingKey(key),
						LockKeys.receiptKey(key)),
				List.of(owner, Long.toString(leaseMillis), this.fencingRetentionMillis, Long.toString(waitMillis),
						issueNow ? "1" : this.issueNow, notAfter));
	}

	/**
	 * @param issueNow as in {@link #acquireQueuedCall}
	 * @param notAfter as in {@link #acquireQueuedCall}
	 */
	ScriptCall acquireCall(String key, String owner, long leaseMillis, boolean issueNow, String notAfter) {
		return new ScriptCall(LockScripts.ACQUIRE, List.of(key, LockKeys.fenceKey(key), LockKeys.receiptKey(key)),
				List.of(owner, Long.toString(leaseMillis), this.fencingRetentionMillis, issueNow ? "1" : this.issueNow,
						notAfter));
	}

	/**
	 * @return the fencing token (&gt; 0), or {@code -1 - remaining lease ms} of the
	 * holder (the owner is then queued for {@code waitMillis})
	 */
	long acquireFair(String key, String owner, long leaseMillis, long waitMillis) {
		return settled(run(acquireFairCall(key, owner, leaseMillis, waitMillis, notAfter())));
	}

	/**
	 * @param notAfter as in {@link #acquireQueuedCall}
	 */
	ScriptCall acquireFairCall(String key, String owner, long leaseMillis, long waitMillis, String notAfter) {
		return new ScriptCall(this.sharded ? QueueScripts.ACQUIRE_FAIR_SHARDED : QueueScripts.ACQUIRE_FAIR,
				List.of(key, LockKeys.fenceKey(key), LockKeys.queueKey(key), LockKeys.waitingKey(key),
						LockKeys.receiptKey(key)),
				List.of(owner, Long.toString(leaseMillis), this.fencingRetentionMillis, Long.toString(waitMillis),
						this.grantLeaseMillis, channel(key), notAfter));
	}

	/**
	 * @param permits 0 for a READ hold, or the number of permits
	 * @return the fencing token (&gt; 0), {@code -1 - remaining lease ms} of the key, or
	 * 0 when it is held shared with another number of permits
	 */
	long acquireShared(String key, String owner, int permits, long leaseMillis) {
		return settled(run(acquireSharedCall(key, owner, permits, leaseMillis, notAfter())));
	}

	/**
	 * @param notAfter as in {@link #acquireQueuedCall}
	 */
	ScriptCall acquireSharedCall(String key, String owner, int permits, long leaseMillis, String notAfter) {
		return new ScriptCall(this.sharded ? SharedScripts.ACQUIRE_SHARED_SHARDED : SharedScripts.ACQUIRE_SHARED,
				List.of(key, LockKeys.fenceKey(key), LockKeys.queueKey(key), LockKeys.waitingKey(key),
						LockKeys.receiptKey(key), LockKeys.holdersKey(key)),
				List.of(owner, Long.toString(leaseMillis), this.fencingRetentionMillis, Integer.toString(permits),
						this.grantLeaseMillis, channel(key), notAfter));
	}

	/**
	 * The reply of an acquire script, after noting an "expired in transit" one
	 * ({@link LockScripts#EXPIRED_IN_TRANSIT}): the next acquire measures the server's
	 * clock again ({@link AcquireDeadline#expiredInTransit}).
	 * @return {@code reply}
	 */
	long settled(long reply) {
		if (reply == LockScripts.EXPIRED_IN_TRANSIT) {
			this.deadline.expiredInTransit();
		}
		return reply;
	}

	/**
	 * {@code notAfter} of an acquire sent now ({@link AcquireDeadline}); measures the
	 * server's clock first when it is not known, which blocks.
	 */
	String notAfter() {
		return this.deadline.notAfter();
	}

	/** {@link #notAfter()} if it needs no round trip, else {@code null}. */
	@Nullable String notAfterIfKnown() {
		return this.deadline.notAfterIfMeasured();
	}

	/**
	 * The value and {@code PTTL} of a lock key, read together: one round trip, and no
	 * release or acquisition between the two reads.
	 */
	@SuppressWarnings("rawtypes")
	private static final RedisScript<List> READ_HOLD = RedisScript
		.of("return {redis.call('GET', KEYS[1]) or '', redis.call('PTTL', KEYS[1])}", List.class);

	/**
	 * Who holds the lock on this node and for how long, for the quorum: the owner token
	 * in the lock key without the contended flag, and the key's remaining time
	 * ({@link Long#MAX_VALUE} without expiry); -1 when it is absent.
	 */
	QuorumHolds.NodeHold hold(String key) {
		List<?> reply = this.redis.execute(READ_HOLD, List.of(key));
		if (reply == null || reply.size() != 2) {
			throw new IllegalStateException("Redis returned no value and time of lock key '" + LogSafe.text(key) + "'");
		}
		String value = String.valueOf(reply.get(0));
		long ttl = ((Number) reply.get(1)).longValue();
		if (value.isEmpty() || ttl == -2) {
			return new QuorumHolds.NodeHold(null, -1);
		}
		String owner = value.endsWith("+") ? value.substring(0, value.length() - 1) : value;
		return new QuorumHolds.NodeHold(owner, (ttl == -1) ? Long.MAX_VALUE : ttl);
	}

	/**
	 * How the key is held shared, from its value.
	 * @return 0 for READ, the number of permits, or -1 when it is not held shared
	 */
	int sharedPermits(String key) {
		String value = this.redis.opsForValue().get(key);
		if (value == null || !value.startsWith("\n")) {
			return -1;
		}
		String digits = value.substring(1).replace("+", "");
		return digits.isEmpty() ? -1 : Integer.parseInt(digits);
	}

	/**
	 * @return whether {@code owner} released the lock, by this call or, when it is a
	 * replay, by the first run
	 */
	boolean release(String key, String owner) {
		return release(key, owner, false);
	}

	/**
	 * @param withdraw whether to announce no release (see
	 * {@link io.github.distlock.store.LockStore#withdraw})
	 * @return as {@link #release(String, String)}
	 */
	boolean release(String key, String owner, boolean withdraw) {
		return run(releaseCall(key, owner, withdraw)) == 1;
	}

	ScriptCall releaseCall(String key, String owner, boolean withdraw) {
		return new ScriptCall(this.sharded ? LockScripts.RELEASE_SHARDED : LockScripts.RELEASE,
				List.of(key, LockKeys.receiptKey(key), LockKeys.queueKey(key), LockKeys.waitingKey(key),
						LockKeys.fenceKey(key), LockKeys.holdersKey(key)),
				List.of(owner, channel(key), this.receiptRetentionMillis, this.grantLeaseMillis, withdraw ? "1" : "0",
						this.fencingRetentionMillis));
	}

	/**
	 * @return the new holder's fencing token (&gt; 0), -1 if released instead, 0 if not
	 * owned
	 */
	long handOver(String key, String owner, String newOwner, long newLeaseMillis, boolean mayStayLocal) {
		return handOver(key, owner, newOwner, newLeaseMillis, mayStayLocal, "");
	}

	/**
	 * {@link #handOver(String, String, String, long, boolean)} to a waiter queued as
	 * {@code newOwnerQueuedAs} ("" for none), whose queue entry goes with the hand-over.
	 */
	long handOver(String key, String owner, String newOwner, long newLeaseMillis, boolean mayStayLocal,
			String newOwnerQueuedAs) {
		return run(handOverCall(key, owner, newOwner, newLeaseMillis, mayStayLocal, newOwnerQueuedAs));
	}

	/**
	 * {@link #handOver(String, String, String, long, boolean)} on a connection of
	 * {@code replicated}, which waits for the replicas when the lock was handed over.
	 */
	ReplicaAcknowledgedWrites.Written handOver(ReplicaAcknowledgedWrites replicated, String key, String owner,
			String newOwner, long newLeaseMillis, boolean mayStayLocal) {
		return replicated.write(handOverCall(key, owner, newOwner, newLeaseMillis, mayStayLocal, ""),
				(reply) -> reply > 0);
	}

	private ScriptCall handOverCall(String key, String owner, String newOwner, long newLeaseMillis,
			boolean mayStayLocal, String newOwnerQueuedAs) {
		return new ScriptCall(this.sharded ? LockScripts.HAND_OVER_SHARDED : LockScripts.HAND_OVER,
				List.of(key, LockKeys.fenceKey(key), LockKeys.receiptKey(key), LockKeys.queueKey(key),
						LockKeys.waitingKey(key)),
				List.of(owner, newOwner, this.fencingRetentionMillis, Long.toString(newLeaseMillis),
						mayStayLocal ? "1" : "0", channel(key), this.receiptRetentionMillis, this.grantLeaseMillis,
						newOwnerQueuedAs));
	}

	/**
	 * {@link LockScripts#EXPIRE} of {@code resets} (see {@link #expireCall(List)}).
	 * @return bit {@code i} set when lock {@code i} was renewed
	 */
	long expire(List<LeaseReset> resets) {
		return run(expireCall(resets));
	}

	ScriptCall expireCall(String key, String owner, long leaseMillis) {
		return new ScriptCall(LockScripts.EXPIRE, List.of(key, LockKeys.holdersKey(key)),
				List.of(owner, Long.toString(leaseMillis)));
	}

	/**
	 * One {@link LockScripts#EXPIRE} of at most {@link LockScripts#EXPIRE_BATCH} locks
	 * (of one hash slot on a Redis Cluster): its reply has bit {@code i} set when lock
	 * {@code i} was renewed.
	 */
	ScriptCall expireCall(List<LeaseReset> resets) {
		List<String> keys = new ArrayList<>(2 * resets.size());
		List<String> args = new ArrayList<>(2 * resets.size());
		for (LeaseReset reset : resets) {
			keys.add(reset.key());
			keys.add(LockKeys.holdersKey(reset.key()));
			args.add(reset.owner());
			args.add(Long.toString(reset.leaseMillis()));
		}
		return new ScriptCall(LockScripts.EXPIRE, keys, args);
	}

	boolean exists(String key) {
		return Boolean.TRUE.equals(this.redis.hasKey(key));
	}

	/**
	 * @return remaining lease in ms, -1 for a key without expiry, -2 if absent
	 */
	long remainingMillis(String key) {
		Long ttl = this.redis.getExpire(key, java.util.concurrent.TimeUnit.MILLISECONDS);
		return (ttl != null) ? ttl : -2;
	}

	private String channel(String key) {
		return this.sharded ? LockKeys.releaseShardChannel(key) : this.releaseChannel;
	}

	/**
	 * One script with its keys and arguments, built once for the template and for the
	 * replica-acknowledged connections alike, so that both always send the same.
	 */
	record ScriptCall(RedisScript<Long> script, List<String> keys, List<String> args) {

	}

	private long run(ScriptCall call) {
		return this.scripts.run(call);
	}

	/** The runner of the scripts, for {@link RedisAsyncLockStore}. */
	LockScriptRunner scripts() {
		return this.scripts;
	}

}
