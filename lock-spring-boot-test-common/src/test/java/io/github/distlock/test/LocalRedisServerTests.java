package io.github.distlock.test;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.redis.RedisLockStore;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link LocalRedisServer @LocalRedisServer} connects the application to a
 * {@code redis-server} of its own, whatever {@code spring.data.redis.*} says: the locks
 * and the application's own template are in that server. The server is the line's Spring
 * Boot Redis connection details ({@link LineUnderTest#REDIS_CONNECTION_DETAILS}).
 */
@SpringBootTest(properties = { "spring.data.redis.host=192.0.2.1", "spring.data.redis.port=1" })
@LocalRedisServer
class LocalRedisServerTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private LocalRedisServerDetailsSupport local;

	@Autowired
	private LockService lockService;

	@Autowired
	private StringRedisTemplate redis;

	@Test
	void locksAndTemplateUseTheLocalServer() {
		assertThat(this.context.getBean(LineUnderTest.REDIS_CONNECTION_DETAILS)).isSameAs(this.local);
		assertThat(this.local.server().isRunning()).isTrue();
		assertThat(LineUnderTest.standalone(this.local).getHost()).isEqualTo(this.local.server().host());
		assertThat(this.context.getBeansOfType(RedisLockStore.class)).as("the locks' store").hasSize(1);

		try (LockHandle handle = this.lockService.lock("stock:apple", Duration.ofSeconds(10))) {
			assertThat(handle.isHeld()).isTrue();
			assertThat(this.local.server().keys("*")).anyMatch((key) -> key.contains("stock:apple"));
		}
		this.redis.opsForValue().set("greeting", "hello");
		assertThat(this.local.server().command("GET", "greeting")).isEqualTo("hello");
	}

}
