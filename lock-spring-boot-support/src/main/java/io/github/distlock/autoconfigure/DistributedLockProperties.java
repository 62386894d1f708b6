package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.interceptor.AnnotationLockOperationSource;
import io.github.distlock.support.DurationText;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;

/**
 * Configuration of distributed locks.
 */
@ConfigurationProperties("distributed-lock")
public class DistributedLockProperties {

	/**
	 * Default order of the lock advisor: just outside transactions, whose advisor has the
	 * lowest precedence by default, so the lock is acquired before a transaction begins
	 * and released after it ends.
	 */
	public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 1;

	/**
	 * Whether to enable distributed locks. When false there is no LockService bean and
	 * annotated methods run without a lock.
	 */
	private boolean enabled = true;

	/**
	 * Where the locks live: 'redis' excludes every instance sharing the Redis server and
	 * key prefix; 'quorum' every instance sharing the majority of the independent Redis
	 * masters of 'distributed-lock.quorum.nodes'; 'in-memory' only the threads of this
	 * JVM, never other processes (for tests and single-instance applications).
	 */
	private Store store = Store.REDIS;

	/**
	 * Prefix of every Redis key and pub/sub channel the locks write. Must not contain '{'
	 * or '}'.
	 */
	private String keyPrefix = "distlock:";

	/**
	 * How long @DistributedLock methods wait for their lock when the annotation sets no
	 * waitTime.
	 */
	private Duration waitTime = Duration.ofSeconds(10);

	/**
	 * Lease of auto-renewed locks. A holder renews it about every third of it; a crashed
	 * holder's lock is free again after it at the latest.
	 */
	private Duration leaseTime = Duration.ofSeconds(30);

	/**
	 * How long the last fencing token of a lock is kept in Redis after it was issued.
	 * Tokens keep increasing beyond it as long as the Redis server clock does not step
	 * back by more than this. Also the longest a release receipt lives (twice the command
	 * timeout otherwise). In quorum mode also how long a node restarted empty does not
	 * count for fencing tokens.
	 */
	private Duration fencingRetention = Duration.ofMinutes(1);

	/**
	 * Order of the lock advisor among other advisors on the same bean; lower runs
	 * outside. Proxy mode only: with @EnableDistributedLock(mode = ASPECTJ) setting it
	 * fails the startup.
	 */
	private int order = DEFAULT_ORDER;

	private final Quorum quorum = new Quorum();

	private final Replication replication = new Replication();

	private final Web web = new Web();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Store getStore() {
		return this.store;
	}

	public void setStore(Store store) {
		this.store = store;
	}

	public String getKeyPrefix() {
		return this.keyPrefix;
	}

	public void setKeyPrefix(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	public Duration getWaitTime() {
		return this.waitTime;
	}

	public void setWaitTime(Duration waitTime) {
		if (waitTime.isNegative() || waitTime.compareTo(AnnotationLockOperationSource.MAX_WAIT_TIME) > 0) {
			throw new IllegalArgumentException("distributed-lock.wait-time must be between 0 and "
					+ DurationText.of(AnnotationLockOperationSource.MAX_WAIT_TIME) + ", but was "
					+ DurationText.of(waitTime));
		}
		this.waitTime = waitTime;
	}

	public Duration getLeaseTime() {
		return this.leaseTime;
	}

	public void setLeaseTime(Duration leaseTime) {
		if (leaseTime.compareTo(Duration.ofMillis(3)) < 0) {
			throw new IllegalArgumentException(
					"distributed-lock.lease-time must be at least 3ms, but was " + DurationText.of(leaseTime));
		}
		this.leaseTime = leaseTime;
	}

	public Duration getFencingRetention() {
		return this.fencingRetention;
	}

	public void setFencingRetention(Duration fencingRetention) {
		if (fencingRetention.compareTo(Duration.ofMillis(1)) < 0) {
			throw new IllegalArgumentException("distributed-lock.fencing-retention must be at least 1ms, but was "
					+ DurationText.of(fencingRetention));
		}
		this.fencingRetention = fencingRetention;
	}

	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	public Quorum getQuorum() {
		return this.quorum;
	}

	/**
	 * The independent Redis masters of {@code distributed-lock.store=quorum}.
	 */
	public static class Quorum {

		/**
		 * Independent Redis masters holding the locks when the store is 'quorum', at
		 * least 3 (an odd number: 3 or 5), as URIs redis://[user:password@]host:port[/db]
		 * (rediss:// for SSL). A lock is held when a majority of them hold it. Their
		 * command timeout is spring.data.redis.timeout (1s when not set), their connect
		 * timeout spring.data.redis.connect-timeout (the command timeout when not set).
		 */
		private List<String> nodes = new ArrayList<>();

		public List<String> getNodes() {
			return this.nodes;
		}

		public void setNodes(List<String> nodes) {
			this.nodes = nodes;
		}

	}

	public Replication getReplication() {
		return this.replication;
	}

	/**
	 * Replica-acknowledged locks: an acquisition counts only once Redis replicas
	 * acknowledged it ({@code WAIT}).
	 */
	public static class Replication {

		/**
		 * Replicas that must acknowledge an acquisition or hand-over (Redis WAIT) before
		 * it counts; with fewer, the lock is released again and the acquisition fails. 0
		 * waits for none.
		 */
		private int minReplicas;

		/**
		 * How long an acquisition waits for those acknowledgements. A healthy replica
		 * acknowledges within a round trip; one that has not within this time is lagging
		 * or gone, and the acquisition fails instead of stalling its caller. Must be
		 * shorter than the lease time.
		 */
		private Duration timeout = Duration.ofSeconds(1);

		/**
		 * Whether lease renewals and extend() wait for the replicas too. A renewal they
		 * do not acknowledge counts as failed: the holder relies only on leases a
		 * failover would keep, and loses the lock when its lease runs out meanwhile.
		 */
		private boolean renewals;

		public int getMinReplicas() {
			return this.minReplicas;
		}

		public void setMinReplicas(int minReplicas) {
			if (minReplicas < 0) {
				throw new IllegalArgumentException(
						"distributed-lock.replication.min-replicas must not be negative, but was " + minReplicas);
			}
			this.minReplicas = minReplicas;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			if (timeout.isNegative()) {
				throw new IllegalArgumentException("distributed-lock.replication.timeout must not be negative, but was "
						+ DurationText.of(timeout));
			}
			this.timeout = timeout;
		}

		public boolean isRenewals() {
			return this.renewals;
		}

		public void setRenewals(boolean renewals) {
			this.renewals = renewals;
		}

	}

	public Web getWeb() {
		return this.web;
	}

	/**
	 * The opt-in answer of Spring MVC and WebFlux applications to a request that failed
	 * with {@link io.github.distlock.LockNotAcquiredException}.
	 */
	public static class Web {

		/**
		 * Whether Spring MVC and WebFlux applications answer a request that failed with
		 * LockNotAcquiredException with an RFC 9457 problem, the status
		 * 'distributed-lock.web.status' and a Retry-After header. A controller's own
		 * exception handler still wins.
		 */
		private boolean enabled;

		/**
		 * HTTP status of the answer to a request that failed with
		 * LockNotAcquiredException: 503 (Service Unavailable) or 429 (Too Many Requests)
		 * suit it; any 4xx or 5xx status is accepted.
		 */
		private int status = 503;

		/**
		 * Retry-After of the answer to a request that failed with
		 * LockNotAcquiredException, sent in whole seconds rounded up. 0 leaves the header
		 * out.
		 */
		private Duration retryAfter = Duration.ofSeconds(1);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getStatus() {
			return this.status;
		}

		public void setStatus(int status) {
			if (status < 400 || status > 599) {
				throw new IllegalArgumentException(
						"distributed-lock.web.status must be a 4xx or 5xx status, but was " + status);
			}
			this.status = status;
		}

		public Duration getRetryAfter() {
			return this.retryAfter;
		}

		public void setRetryAfter(Duration retryAfter) {
			if (retryAfter.isNegative()) {
				throw new IllegalArgumentException("distributed-lock.web.retry-after must not be negative, but was "
						+ DurationText.of(retryAfter));
			}
			this.retryAfter = retryAfter;
		}

	}

	/**
	 * Where the locks live, chosen with {@code distributed-lock.store}.
	 */
	public enum Store {

		/**
		 * Redis, through Spring Boot's Redis connection factory: locks exclude every
		 * process using the same Redis and key prefix.
		 */
		REDIS,

		/**
		 * A majority of independent Redis masters ({@code distributed-lock.quorum.nodes},
		 * Redlock), each through its own connection; {@code spring.data.redis.*} is not
		 * used for the locks.
		 */
		QUORUM,

		/**
		 * This JVM's memory ({@link io.github.distlock.store.InMemoryLockStore}): locks
		 * exclude only the threads of this application, never other processes. For tests
		 * and single-instance use.
		 */
		IN_MEMORY

	}

}
