package io.github.distlock.benchmarks;

import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisServer;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock} holding locks with its watchdog: {@code tryLock()} with no
 * lease, {@code lockWatchdogTimeout} 30 s (its default, set explicitly), renewed every 10
 * s. A hold remembers the acquiring thread's id, so that any thread can check
 * ({@link RLock#isHeldByThread(long)}, a Redis call) and release it
 * ({@link RLock#unlockAsync(long)}).
 */
final class RedissonHolder implements LockHolder {

	static final long WATCHDOG_MILLIS = 30_000;

	private final RedissonClient redisson;

	private RedissonHolder(Config config) {
		config.setLockWatchdogTimeout(WATCHDOG_MILLIS);
		this.redisson = Redisson.create(config);
	}

	/** A client of one server ({@code useSingleServer}). */
	static RedissonHolder single(RedisServer redis) {
		Config config = new Config();
		config.useSingleServer().setAddress(redis.uri());
		return new RedissonHolder(config);
	}

	/** A client of a Redis Cluster ({@code useClusterServers}, every node a seed). */
	static RedissonHolder cluster(RedisCluster cluster) {
		Config config = new Config();
		ClusterServersConfig servers = config.useClusterServers();
		cluster.servers().forEach(server -> servers.addNodeAddress(server.uri()));
		return new RedissonHolder(config);
	}

	@Override
	public Hold hold(String lockId) {
		String id = "redisson-held:" + lockId;
		RLock lock = redisson.getLock(id);
		if (!lock.tryLock()) {
			throw new IllegalStateException("Redisson did not acquire free lock '" + id + "'");
		}
		long threadId = Thread.currentThread().getId();
		return new Hold() {

			@Override
			public boolean stillHeld() {
				return lock.isHeldByThread(threadId);
			}

			@Override
			public boolean release() {
				try {
					lock.unlockAsync(threadId).toCompletableFuture().join();
					return true;
				}
				catch (RuntimeException ex) {
					// IllegalMonitorStateException (wrapped): not held by that thread any
					// more.
					return false;
				}
			}
		};
	}

	@Override
	public void close() {
		redisson.shutdown();
	}

}
