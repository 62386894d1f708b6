package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.testsupport.RedisServer;
import org.redisson.Redisson;
import org.redisson.api.RLockReactive;
import org.redisson.api.RedissonClient;
import org.redisson.api.RedissonReactiveClient;
import org.redisson.config.Config;
import reactor.core.publisher.Mono;

/**
 * Redisson's {@link RLockReactive} ({@code redisson.reactive().getLock(name)}) as its
 * documentation asks reactive code to use it: a thread id of its own for every
 * acquisition (a reactive pipeline has no thread to own the lock), given to
 * {@code tryLock(wait, -1, unit, threadId)} and {@code unlock(threadId)}. No lease
 * ({@code -1}): the watchdog renews it, as the blocking {@code redisson} row's.
 */
final class RedissonReactiveLockClient implements ReactiveLockClient {

	private final RedissonClient redisson;

	private final RedissonReactiveClient reactive;

	private final long waitMillis;

	/**
	 * The thread ids of this client's acquisitions; Redisson qualifies them with the
	 * client's own id, so two clients' never clash.
	 */
	private final AtomicLong threadIds = new AtomicLong();

	RedissonReactiveLockClient(RedisServer redis, Duration waitTime) {
		Config config = new Config();
		config.useSingleServer().setAddress(redis.uri());
		this.redisson = Redisson.create(config);
		this.reactive = this.redisson.reactive();
		this.waitMillis = waitTime.toMillis();
	}

	@Override
	public Mono<Boolean> runLocked(String lockId, Runnable action) {
		return Mono.defer(() -> {
			RLockReactive lock = this.reactive.getLock("redisson-reactive:" + lockId);
			long threadId = this.threadIds.incrementAndGet();
			return lock.tryLock(this.waitMillis, -1, TimeUnit.MILLISECONDS, threadId).flatMap((acquired) -> {
				if (!acquired) {
					return Mono.just(false);
				}
				Mono<Boolean> held = Mono.fromCallable(() -> {
					action.run();
					return true;
				}).onErrorResume((failure) -> lock.unlock(threadId).then(Mono.error(failure)));
				return held.flatMap((ran) -> lock.unlock(threadId).thenReturn(ran));
			});
		});
	}

	@Override
	public void close() {
		this.redisson.shutdown();
	}

}
