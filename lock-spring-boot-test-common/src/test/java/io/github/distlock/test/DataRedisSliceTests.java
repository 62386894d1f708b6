package io.github.distlock.test;

import java.time.Duration;

import io.github.distlock.LockService;
import io.github.distlock.redis.RedisLockStore;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @DataRedisTest} slice ({@link RedisSliceTest}, the line's) leaves distlock
 * out; {@link AutoConfigureDistributedLock @AutoConfigureDistributedLock} brings it in,
 * on the slice's Redis ({@link LocalRedisServer @LocalRedisServer}).
 */
@RedisSliceTest
@AutoConfigureDistributedLock
@LocalRedisServer
class DataRedisSliceTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private LockService lockService;

	@Test
	void theSliceHasTheLocksInRedis() {
		assertThat(this.context.getBeansOfType(RedisLockStore.class)).as("the locks' store").hasSize(1);
		// The test application imports Jobs: their @DistributedLock methods are
		// intercepted in the slice.
		this.context.getBean(Jobs.class).buy("apple", () -> TestLocks.assertLocked("stock:apple"));
		assertThat(this.lockService.executeLocked("slice", Duration.ofSeconds(10), () -> "ran")).isEqualTo("ran");
		assertThat(this.lockService.isLocked("slice")).isFalse();
	}

}
