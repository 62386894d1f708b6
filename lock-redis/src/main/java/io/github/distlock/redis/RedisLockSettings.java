package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.support.DurationText;

/**
 * Settings of a {@link RedisLockStore}: key prefix, lease, fencing retention and
 * replication.
 *
 * @param keyPrefix prefix of every Redis key and channel the lock writes; no braces
 * @param leaseTime lease of auto-renewed locks, renewed about every third of it
 * @param fencingRetention how long the last fencing token of a lock is kept after its
 * last acquisition; tokens stay increasing beyond it as long as the Redis server clock
 * does not step back by more than this
 * @param minReplicas replicas that must acknowledge an acquisition or hand-over
 * ({@code WAIT}) before it counts; 0 waits for none
 * @param replicationTimeout how long an acquisition waits for those acknowledgements;
 * shorter than the lease when {@code minReplicas} is above 0
 * @param replicatedRenewals whether renewals and {@code extend} wait for the replicas too
 * (with {@code minReplicas} above 0): one not acknowledged counts as a failed renewal
 */
public record RedisLockSettings(String keyPrefix, Duration leaseTime, Duration fencingRetention, int minReplicas,
		Duration replicationTimeout, boolean replicatedRenewals) {

	/**
	 * Default of {@code distributed-lock.replication.timeout}.
	 */
	public static final Duration DEFAULT_REPLICATION_TIMEOUT = Duration.ofSeconds(1);

	public RedisLockSettings {
		if (keyPrefix == null) {
			throw new IllegalArgumentException("keyPrefix must not be null");
		}
		requireAtLeastMillis("leaseTime", leaseTime, 3);
		requireAtLeastMillis("fencingRetention", fencingRetention, 1);
		if (minReplicas < 0) {
			throw new IllegalArgumentException("minReplicas must not be negative, but was " + minReplicas);
		}
		if (replicationTimeout == null) {
			throw new IllegalArgumentException("replicationTimeout must not be null");
		}
		if (minReplicas > 0) {
			requireAtLeastMillis("replicationTimeout", replicationTimeout, 1);
			if (replicationTimeout.compareTo(leaseTime) >= 0) {
				throw new IllegalArgumentException("replicationTimeout must be shorter than leaseTime ("
						+ DurationText.of(leaseTime) + "), but was " + DurationText.of(replicationTimeout));
			}
		}
	}

	/**
	 * Settings that wait for no replica.
	 * @param keyPrefix prefix of every Redis key and channel the lock writes
	 * @param leaseTime lease of auto-renewed locks
	 * @param fencingRetention how long the last fencing token of a lock is kept
	 */
	public RedisLockSettings(String keyPrefix, Duration leaseTime, Duration fencingRetention) {
		this(keyPrefix, leaseTime, fencingRetention, 0, DEFAULT_REPLICATION_TIMEOUT, false);
	}

	/**
	 * The defaults of the {@code distributed-lock.*} properties.
	 * @return prefix {@code distlock:}, lease 30 s, fencing retention 1 min, no replica
	 * waited for
	 */
	public static RedisLockSettings defaults() {
		return new RedisLockSettings("distlock:", Duration.ofSeconds(30), Duration.ofMinutes(1));
	}

	public RedisLockSettings withKeyPrefix(String prefix) {
		return new RedisLockSettings(prefix, this.leaseTime, this.fencingRetention, this.minReplicas,
				this.replicationTimeout, this.replicatedRenewals);
	}

	public RedisLockSettings withLeaseTime(Duration lease) {
		return new RedisLockSettings(this.keyPrefix, lease, this.fencingRetention, this.minReplicas,
				this.replicationTimeout, this.replicatedRenewals);
	}

	public RedisLockSettings withFencingRetention(Duration retention) {
		return new RedisLockSettings(this.keyPrefix, this.leaseTime, retention, this.minReplicas,
				this.replicationTimeout, this.replicatedRenewals);
	}

	/**
	 * These settings, with acquisitions and hand-overs counting only once
	 * {@code minReplicas} replicas acknowledged them within {@code timeout}.
	 * @param minReplicas replicas to wait for; 0 waits for none
	 * @param timeout how long to wait for them
	 * @return the settings
	 */
	public RedisLockSettings withReplication(int minReplicas, Duration timeout) {
		return new RedisLockSettings(this.keyPrefix, this.leaseTime, this.fencingRetention, minReplicas, timeout,
				this.replicatedRenewals);
	}

	/**
	 * These settings, with renewals and {@code extend} waiting for the replicas too.
	 * @param replicated whether they wait
	 * @return the settings
	 */
	public RedisLockSettings withReplicatedRenewals(boolean replicated) {
		return new RedisLockSettings(this.keyPrefix, this.leaseTime, this.fencingRetention, this.minReplicas,
				this.replicationTimeout, replicated);
	}

	private static void requireAtLeastMillis(String name, Duration value, long millis) {
		if (value == null || value.compareTo(Duration.ofMillis(millis)) < 0) {
			throw new IllegalArgumentException(
					name + " must be at least " + millis + "ms, but was " + DurationText.of(value));
		}
	}

}
