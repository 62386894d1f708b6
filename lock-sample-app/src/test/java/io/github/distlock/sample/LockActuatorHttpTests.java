package io.github.distlock.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.sample.shop.RaceWindow;
import org.jspecify.annotations.Nullable;
import io.github.distlock.test.LocalRedisServer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock's metrics, endpoint and health through HTTP, as an operator (and the
 * dashboard) reads them from a running instance: its own embedded server, H2 and the
 * test's own {@code redis-server}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.url=jdbc:h2:mem:actuator;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"sample.instance-name=watched", "sample.race-window=0ms" })
@LocalRedisServer
class LockActuatorHttpTests {

	private static final Duration BOUND = Duration.ofSeconds(30);

	private static final String ACQUIRED = "/actuator/metrics/distlock.acquire?tag=name:stock&tag=outcome:acquired";

	private static final String HOLD = "/actuator/metrics/distlock.hold?tag=name:stock";

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Autowired
	private HoldingRaceWindow window;

	@Test
	void lockedPurchasesAreCountedInTheWaitAndHoldTimers() throws Exception {
		long acquiredBefore = count(ACQUIRED);
		long heldBefore = count(HOLD);
		assertThat(send("/product/reset?amount=10", "POST").statusCode()).isEqualTo(200);

		for (String buyer : new String[] { "ann", "bob", "cy" }) {
			assertThat(send("/product/buy?lock=Y&buyer=" + buyer, "GET").body()).isEqualTo("BOUGHT");
		}
		// Neither takes the lock; the fenced path would, under the same name.
		assertThat(send("/product/buy?lock=N&buyer=dan", "GET").body()).isEqualTo("BOUGHT");

		assertThat(count(ACQUIRED)).isEqualTo(acquiredBefore + 3);
		JsonNode hold = metric(HOLD);
		assertThat(hold.path("baseUnit").asString()).isEqualTo("seconds");
		assertThat((long) statistic(hold, "COUNT")).isEqualTo(heldBefore + 3);
		assertThat(statistic(hold, "TOTAL_TIME")).isPositive();
		assertThat(availableTagValues(hold, "outcome")).contains("released");

		// The dashboard's view of the same meters, read through /cluster.
		JsonNode self = readJson(send("/cluster", "GET")).get(0);
		assertThat(self.path("locks").path("waitTime").path("count").asLong()).isEqualTo(acquiredBefore + 3);
		assertThat(self.path("locks").path("holdTime").path("count").asLong()).isEqualTo(heldBefore + 3);
		assertThat(self.path("locks").path("holdTime").path("meanMillis").asDouble()).isPositive();
	}

	@Test
	void purchaseHeldOpenIsListedByTheEndpointUntilItCompletes() throws Exception {
		assertThat(send("/product/reset?amount=10", "POST").statusCode()).isEqualTo(200);
		assertThat(readJson(send("/actuator/locks/stock:apple", "GET")).path("locked").asBoolean()).isFalse();

		Hold hold = this.window.holdNextBuyer();
		CompletableFuture<HttpResponse<String>> purchase = CompletableFuture
			.supplyAsync(() -> sendUnchecked("/product/buy?lock=F&buyer=slow"));
		try {
			assertThat(hold.reached.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("buyer inside the lock").isTrue();

			JsonNode locks = readJson(send("/actuator/locks", "GET")).path("locks");
			assertThat(locks.isArray()).isTrue();
			assertThat(locks.size()).isOne();
			assertThat(locks.get(0).path("name").asString()).isEqualTo("stock");
			assertThat(locks.get(0).path("lockId").asString()).isEqualTo("stock:apple");
			assertThat(locks.get(0).path("reentrancyDepth").asInt()).isOne();
			// The fenced purchase read its token (issued on first read), so it is shown.
			assertThat(locks.get(0).path("fencingToken").asLong()).isPositive();

			JsonNode apple = readJson(send("/actuator/locks/stock:apple", "GET"));
			assertThat(apple.path("locked").asBoolean()).isTrue();
			assertThat(apple.path("leaseRemainingMillis").asLong()).isPositive();
			assertThat(apple.path("heldByThisInstance").path("lockId").asString()).isEqualTo("stock:apple");

			JsonNode lockHealth = readJson(send("/actuator/health", "GET")).path("components").path("distributedLock");
			assertThat(lockHealth.path("status").asString()).isEqualTo("UP");
			assertThat(lockHealth.path("details").path("heldLocks").asInt()).isOne();

			JsonNode held = readJson(send("/cluster", "GET")).get(0).path("locks").path("held");
			assertThat(held.size()).isOne();
			assertThat(held.get(0).path("lockId").asString()).isEqualTo("stock:apple");
		}
		finally {
			hold.release.countDown();
		}
		assertThat(purchase.get(BOUND.toSeconds(), TimeUnit.SECONDS).body()).isEqualTo("BOUGHT");

		assertThat(readJson(send("/actuator/locks", "GET")).path("locks").size()).isZero();
		JsonNode apple = readJson(send("/actuator/locks/stock:apple", "GET"));
		assertThat(apple.path("locked").asBoolean()).isFalse();
		assertThat(apple.path("heldByThisInstance").isNull() || apple.path("heldByThisInstance").isMissingNode())
			.isTrue();
		JsonNode health = readJson(send("/actuator/health", "GET"));
		assertThat(health.path("components").path("distributedLock").path("status").asString()).isEqualTo("UP");
		assertThat(health.path("components").path("distributedLock").path("details").path("heldLocks").asInt())
			.isZero();
	}

	/**
	 * A timer's count; 0 while the timer does not exist yet (404: Micrometer registers it
	 * on first use).
	 */
	private long count(String path) throws Exception {
		HttpResponse<String> response = send(path, "GET");
		if (response.statusCode() == 404) {
			return 0;
		}
		return (long) statistic(readJson(response), "COUNT");
	}

	private JsonNode metric(String path) throws Exception {
		return readJson(send(path, "GET"));
	}

	private static double statistic(JsonNode metric, String statistic) {
		for (JsonNode sample : metric.path("measurements")) {
			if (sample.path("statistic").asString().equals(statistic)) {
				return sample.path("value").asDouble();
			}
		}
		throw new AssertionError("No " + statistic + " in " + metric);
	}

	private static List<String> availableTagValues(JsonNode metric, String tag) {
		for (JsonNode available : metric.path("availableTags")) {
			if (available.path("tag").asString().equals(tag)) {
				return available.path("values").valueStream().map(JsonNode::asString).toList();
			}
		}
		return List.of();
	}

	private JsonNode readJson(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.uri() + ": " + response.body()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private HttpResponse<String> send(String path, String method) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(BOUND)
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> sendUnchecked(String path) {
		try {
			return send(path, "GET");
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class HoldingWindowConfiguration {

		@Bean
		@Primary
		HoldingRaceWindow holdingRaceWindow() {
			return new HoldingRaceWindow();
		}

	}

	/**
	 * Keeps the next buyer inside its lock, between read and write, until the test lets
	 * it go; others pass.
	 */
	static class HoldingRaceWindow implements RaceWindow {

		private final AtomicReference<@Nullable Hold> next = new AtomicReference<>();

		Hold holdNextBuyer() {
			Hold hold = new Hold();
			this.next.set(hold);
			return hold;
		}

		@Override
		public void between(String productName) {
			Hold hold = this.next.getAndSet(null);
			if (hold != null) {
				hold.await();
			}
		}

	}

	/** One held buyer. */
	static class Hold {

		final CountDownLatch reached = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		void await() {
			this.reached.countDown();
			try {
				if (!this.release.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
					throw new IllegalStateException("The test never released the held buyer");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

}
