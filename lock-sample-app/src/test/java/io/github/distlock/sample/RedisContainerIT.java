package io.github.distlock.sample;

import java.time.Duration;

import io.github.distlock.LockService;
import io.github.distlock.redis.RedisLockStore;
import io.github.distlock.sample.shop.BuyService;
import io.github.distlock.sample.shop.Inventory;
import io.github.distlock.sample.shop.ProductController;
import io.github.distlock.sample.shop.PurchaseOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * distlock on a Redis container connected with {@code @ServiceConnection}, unchanged: the
 * starter uses Spring Boot's auto-configured connection factory, which the container's
 * connection details configure.
 * <p>
 * Needs a Docker engine. Where none answers (as on this project's machines and CI) the
 * class is skipped with a message naming what to install ({@link RequiresDocker}). That
 * is the one test of the sample that skips in CI; {@code @LocalRedisServer} gives the
 * same connection with a {@code redis-server} process instead.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
		properties = { "spring.datasource.url=jdbc:h2:mem:container;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"sample.race-window=0ms" })
@ExtendWith(RequiresDocker.class)
@Testcontainers
class RedisContainerIT {

	@Container
	@ServiceConnection
	static final GenericContainer<?> redis = new GenericContainer<>("redis:7.4-alpine").withExposedPorts(6379);

	@Autowired
	private ApplicationContext context;

	@Autowired
	private LockService lockService;

	@Autowired
	private BuyService buyService;

	@Autowired
	private Inventory inventory;

	@Test
	void locksLiveInTheContainersRedis() throws Exception {
		assertThat(this.context.getBeansOfType(RedisLockStore.class)).as("the locks' store").hasSize(1);
		this.inventory.reset(ProductController.PRODUCT_APPLE, 1);
		assertThat(this.buyService.buyProductWithLock(ProductController.PRODUCT_APPLE, "ann"))
			.isEqualTo(PurchaseOutcome.BOUGHT);
		String key = this.lockService.executeLocked("stock:apple", Duration.ofSeconds(10),
				() -> execInContainer("redis-cli", "--scan", "--pattern", "distlock:*stock:apple*"));
		assertThat(key).contains("stock:apple");
	}

	private static String execInContainer(String... command) {
		try {
			return redis.execInContainer(command).getStdout();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not run " + String.join(" ", command) + " in the container", ex);
		}
	}

}
