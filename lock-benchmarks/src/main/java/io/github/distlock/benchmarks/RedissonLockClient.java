package io.github.distlock.benchmarks;

import java.time.Duration;

import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisServer;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock} with its defaults: no lease given, so its watchdog renews the
 * lock.
 */
final class RedissonLockClient implements LockClient {

	private final RedissonClient redisson;

	private final long waitMillis;

	private RedissonLockClient(Config config, Duration waitTime) {
		this.redisson = Redisson.create(config);
		this.waitMillis = waitTime.toMillis();
	}

	/** A client of one server ({@code useSingleServer}). */
	static RedissonLockClient single(RedisServer redis, Duration waitTime) {
		Config config = new Config();
		config.useSingleServer().setAddress(redis.uri());
		return new RedissonLockClient(config, waitTime);
	}

	/**
	 * A client of a Redis Cluster ({@code useClusterServers}, every node as a seed, the
	 * other settings Redisson's defaults).
	 */
	static RedissonLockClient cluster(RedisCluster cluster, Duration waitTime) {
		Config config = new Config();
		ClusterServersConfig servers = config.useClusterServers();
		cluster.servers().forEach(server -> servers.addNodeAddress(server.uri()));
		return new RedissonLockClient(config, waitTime);
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		return LockClient.tryRunLocked(redisson.getLock("redisson:" + lockId), waitMillis, action);
	}

	@Override
	public void close() {
		redisson.shutdown();
	}

}
