package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code close(minHoldTime)} leaves the lock in Redis for the rest of the minimum hold
 * time, rounded up to whole milliseconds (see {@code MinHoldRoundingTests}): never freed
 * earlier than asked.
 */
class MinHoldTimeTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void aClosedLockStaysInRedisForTheRestOfItsMinimumHoldTime() {
		LockEngine service = this.clients.newService();
		String key = new LockKeys("distlock:").lockKey("job");
		LockHandle handle = service.tryLock("job", Duration.ZERO, Duration.ofSeconds(30)).orElseThrow();
		handle.close(Duration.ofSeconds(5).plusNanos(999_999));
		long remaining = Long.parseLong(redis.command("PTTL", key));
		System.out.println("Remaining TTL after close(5.000999999 s): " + remaining + " ms");
		// The lease was 30 s: the minimum hold time replaced it, and the rest of it is in
		// whole ms.
		assertThat(remaining).isPositive().isLessThanOrEqualTo(5_001);
		assertThat(service.trackedLockCount()).isZero();
		assertThat(service.tryLock("job", Duration.ZERO, null)).isEmpty();
	}

}
