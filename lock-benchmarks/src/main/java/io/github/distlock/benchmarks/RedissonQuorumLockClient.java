package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.testsupport.RedisServer;
import org.redisson.Redisson;
import org.redisson.RedissonMultiLock;
import org.redisson.RedissonRedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's locks over several independent masters, one {@link RedissonClient} per node
 * as Redisson's documentation builds them: {@link RedissonMultiLock} (held when every
 * node's {@link RLock} is held) or the deprecated {@link RedissonRedLock} (held when a
 * majority is). No lease given, so the watchdog renews every node's lock.
 */
final class RedissonQuorumLockClient implements LockClient {

	private final List<RedissonClient> clients = new ArrayList<>();

	private final boolean majority;

	/** Differs between the two rows, so neither can find a lock the other left behind. */
	private final String prefix;

	private final long waitMillis;

	/**
	 * @param majority {@code true} for {@link RedissonRedLock}, {@code false} for
	 * {@link RedissonMultiLock}
	 */
	RedissonQuorumLockClient(List<RedisServer> nodes, Duration waitTime, boolean majority) {
		try {
			for (RedisServer node : nodes) {
				Config config = new Config();
				config.useSingleServer().setAddress(node.uri());
				clients.add(Redisson.create(config));
			}
		}
		catch (RuntimeException e) {
			close();
			throw e;
		}
		this.majority = majority;
		this.prefix = majority ? "redlock:" : "multilock:";
		this.waitMillis = waitTime.toMillis();
	}

	@Override
	@SuppressWarnings("deprecation") // RedissonRedLock: the comparison the quorum issue
										// asks for
	public boolean tryRunLocked(String lockId, Runnable action) {
		RLock[] locks = clients.stream().map(client -> client.getLock(prefix + lockId)).toArray(RLock[]::new);
		RLock lock = majority ? new RedissonRedLock(locks) : new RedissonMultiLock(locks);
		return LockClient.tryRunLocked(lock, waitMillis, action);
	}

	@Override
	public void close() {
		clients.forEach(RedissonClient::shutdown);
	}

}
