package io.github.distlock.docs.shop;

import java.time.Duration;

import io.github.distlock.LockService;
import io.github.distlock.test.AutoConfigureDistributedLock;
import io.github.distlock.test.LocalRedisServer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.redis.test.autoconfigure.DataRedisTest;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

// tag::data-redis[]
@DataRedisTest
@AutoConfigureDistributedLock // slices leave distlock out: bring it in
@LocalRedisServer
class StockKeysDataRedisTests {

	@Autowired
	private LockService locks;

	@Autowired
	private StringRedisTemplate redis;

	@Test
	void theLockIsAKeyOfTheSlicesRedisWhileHeld() {
		int keys = this.locks.executeLocked("stock:apple", Duration.ofSeconds(5),
				() -> this.redis.keys("distlock:*").size());
		assertThat(keys).isPositive();
	}

}
// end::data-redis[]
