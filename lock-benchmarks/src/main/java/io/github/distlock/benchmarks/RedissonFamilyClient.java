package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.distlock.testsupport.RedisServer;
import org.redisson.Redisson;
import org.redisson.RedissonMultiLock;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's lock family on one server, with its defaults: the read lock of an
 * {@code RReadWriteLock} (watchdog), an {@code RPermitExpirableSemaphore} of a number of
 * permits (its permits have a fixed lease, 30 s here, distlock's default auto-renewed
 * lease; Redisson does not renew them), and a {@code RedissonMultiLock} of two
 * {@code RLock}s (watchdog).
 */
final class RedissonFamilyClient implements LockClient {

	enum Kind {

		READ, SEMAPHORE, MULTI

	}

	private static final long PERMIT_LEASE_MILLIS = TimeUnit.SECONDS.toMillis(30);

	private final RedissonClient redisson;

	private final Kind kind;

	private final int permits;

	private final long waitMillis;

	/** The semaphores whose permits were set by this client. */
	private final Set<String> semaphores = ConcurrentHashMap.newKeySet();

	RedissonFamilyClient(RedisServer redis, Duration waitTime, Kind kind, int permits) {
		Config config = new Config();
		config.useSingleServer().setAddress(redis.uri());
		this.redisson = Redisson.create(config);
		this.kind = kind;
		this.permits = permits;
		this.waitMillis = waitTime.toMillis();
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		// A name per kind: Redisson keeps each kind in its own data type.
		String name = "redisson-" + this.kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + lockId;
		return switch (this.kind) {
			case READ ->
				LockClient.tryRunLocked(this.redisson.getReadWriteLock(name).readLock(), this.waitMillis, action);
			case MULTI -> LockClient.tryRunLocked(
					new RedissonMultiLock(this.redisson.getLock(name + ":a"), this.redisson.getLock(name + ":b")),
					this.waitMillis, action);
			case SEMAPHORE -> withPermit(name, action);
		};
	}

	private boolean withPermit(String name, Runnable action) {
		RPermitExpirableSemaphore semaphore = this.redisson.getPermitExpirableSemaphore(name);
		if (this.semaphores.add(name)) {
			// Only the first client's call sets them; the others find them set.
			semaphore.trySetPermits(this.permits);
		}
		String permit;
		try {
			permit = semaphore.tryAcquire(this.waitMillis, PERMIT_LEASE_MILLIS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		if (permit == null) {
			return false;
		}
		try {
			action.run();
		}
		finally {
			semaphore.release(permit);
		}
		return true;
	}

	@Override
	public void close() {
		this.redisson.shutdown();
	}

}
