package io.github.distlock.sample;

import java.time.Duration;

import io.github.distlock.LockService;
import io.github.distlock.test.AutoConfigureDistributedLock;
import io.github.distlock.test.LocalRedisServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.redis.test.autoconfigure.DataRedisTest;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @DataRedisTest} slice with distlock in it: the lock of a purchase is a key of
 * the slice's Redis (a {@code redis-server} of the test's own) under the
 * {@code distlock:} prefix while held, and free once released.
 */
@DataRedisTest
@AutoConfigureDistributedLock
@LocalRedisServer
class RedisLockKeysDataRedisTests {

	@Autowired
	private LockService lockService;

	@Autowired
	private StringRedisTemplate redis;

	@Test
	void theLockIsAKeyOfTheSlicesRedisWhileHeld() {
		int keysWhileHeld = this.lockService.executeLocked("stock:apple", Duration.ofSeconds(10),
				() -> this.redis.keys("distlock:*stock:apple*").size());
		assertThat(keysWhileHeld).isPositive();
		assertThat(this.lockService.isLocked("stock:apple")).isFalse();
	}

}
