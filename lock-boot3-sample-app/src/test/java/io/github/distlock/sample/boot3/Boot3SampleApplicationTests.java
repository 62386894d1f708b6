package io.github.distlock.sample.boot3;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.ApplicationContext;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Boot 3.5 line end to end: this application has only
 * {@code lock-spring-boot3-starter} (with web and actuator) and runs on a real
 * {@code redis-server} of its own; its tests have {@code lock-spring-boot3-test} too.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class Boot3SampleApplicationTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@DynamicPropertySource
	static void redisProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", redis::host);
		registry.add("spring.data.redis.port", redis::port);
	}

	@Autowired
	private StockService stock;

	@Autowired
	private LockService lockService;

	@Autowired
	private TestRestTemplate rest;

	@Autowired
	private ApplicationContext context;

	@Test
	void runsOnSpringBoot35WithTheBoot3StarterAndTestKit() throws IOException {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		List<String> markers = new ArrayList<>();
		for (URL url : Collections
			.list(getClass().getClassLoader().getResources("META-INF/distlock/boot-line.properties"))) {
			try (InputStream in = url.openStream()) {
				markers.add(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
			}
		}
		// The starter's auto-configuration module, and the test kit: both of the Boot 3
		// line.
		assertThat(markers).hasSize(2)
			.allSatisfy((marker) -> assertThat(marker).contains("boot-line=3"))
			.anySatisfy((marker) -> assertThat(marker).contains("starter=lock-spring-boot3-starter")
				.contains("artifact=lock-spring-boot3-autoconfigure"))
			.anySatisfy((marker) -> assertThat(marker).contains("artifact=lock-spring-boot3-test"));
		assertThat(AbstractHealthIndicator.class)
			.isAssignableFrom(this.context.getBean("distributedLockHealthIndicator").getClass());
	}

	@Test
	void theAnnotatedMethodNeverOversells() throws Exception {
		int items = 300;
		int buyers = 8;
		int attemptsEach = 50;
		this.stock.restock("apple", items);
		ExecutorService pool = Executors.newFixedThreadPool(buyers);
		try {
			List<Callable<Integer>> tasks = new ArrayList<>();
			for (int i = 0; i < buyers; i++) {
				tasks.add(() -> {
					int bought = 0;
					for (int attempt = 0; attempt < attemptsEach; attempt++) {
						bought += this.stock.buy("apple") ? 1 : 0;
					}
					return bought;
				});
			}
			int sold = 0;
			for (Future<Integer> bought : pool.invokeAll(tasks, 2, TimeUnit.MINUTES)) {
				sold += bought.get();
			}
			System.out.printf("Boot 3.5 sample: %d buyers x %d attempts on %d items: sold %d, left %d%n", buyers,
					attemptsEach, items, sold, this.stock.left("apple"));
			assertThat(sold).isEqualTo(items);
			assertThat(this.stock.left("apple")).isZero();
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void theHttpApiSellsUnderTheLock() {
		this.stock.restock("pear", 1);
		assertThat(this.rest.postForEntity("/stock/pear/buy", null, Void.class).getStatusCode())
			.isEqualTo(HttpStatus.OK);
		assertThat(this.rest.postForEntity("/stock/pear/buy", null, Void.class).getStatusCode())
			.isEqualTo(HttpStatus.CONFLICT);
		assertThat(this.rest.getForObject("/stock/pear", Integer.class)).isZero();
	}

	@Test
	void lockServiceLocksInRedisWithTheConfiguredPrefixAndIncreasingTokens() {
		long first;
		try (LockHandle handle = this.lockService.lock("report", Duration.ofSeconds(5))) {
			first = handle.fencingToken();
			assertThat(this.lockService.isLocked("report")).isTrue();
			assertThat(redis.command("KEYS", "boot3:*")).contains("report");
		}
		assertThat(this.lockService.isLocked("report")).isFalse();
		try (LockHandle again = this.lockService.lock("report", Duration.ofSeconds(5))) {
			assertThat(again.fencingToken()).isGreaterThan(first);
		}
	}

	@Test
	void theLocksEndpointShowsAHeldLock() {
		try (LockHandle handle = this.lockService.lock("stock:plum", Duration.ofSeconds(5))) {
			// Read first: a token is issued on its first read, and shown from then on.
			long token = handle.fencingToken();
			Map<String, Object> locks = get("/actuator/locks");
			assertThat(locks.toString()).contains("lockId=stock:plum").contains("fencingToken=" + token);
			Map<String, Object> one = get("/actuator/locks/stock:plum");
			assertThat(one).containsEntry("locked", true);
		}
	}

	@Test
	void healthHasTheDistributedLockComponent() {
		Map<String, Object> health = get("/actuator/health");
		assertThat(health).containsEntry("status", "UP");
		assertThat(health.toString()).contains("distributedLock={status=UP, details={heldLocks=0");
	}

	@Test
	void metricsHaveTheLockMeters() {
		try (LockHandle handle = this.lockService.lock("meter", Duration.ofSeconds(5))) {
			Map<String, Object> held = get("/actuator/metrics/distlock.locks.held");
			assertThat(held.toString()).contains("statistic=VALUE, value=1.0");
		}
		assertThat(get("/actuator/metrics/distlock.acquire")).containsEntry("name", "distlock.acquire");
		assertThat(get("/actuator/metrics/distlock.locks.lost")).containsEntry("name", "distlock.locks.lost");
	}

	@Test
	void thePropertiesMetadataIsOnTheClassPath() throws IOException {
		String metadata;
		try (InputStream in = getClass().getClassLoader()
			.getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("lock-spring-boot-support's configuration metadata").isNotNull();
			metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		assertThat(metadata).contains("\"distributed-lock.store\"")
			.contains("\"distributed-lock.wait-time\"")
			.contains("\"management.endpoint.locks.access\"");
	}

	private Map<String, Object> get(String path) {
		ResponseEntity<Map<String, Object>> response = this.rest.exchange(path, HttpMethod.GET, null,
				new ParameterizedTypeReference<>() {
				});
		assertThat(response.getStatusCode()).as(path).isEqualTo(HttpStatus.OK);
		return response.getBody();
	}

}
