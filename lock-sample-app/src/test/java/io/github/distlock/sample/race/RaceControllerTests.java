package io.github.distlock.sample.race;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.distlock.sample.shop.RaceWindow;
import io.github.distlock.test.AutoConfigureInMemoryLocks;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A race started with {@code POST /race} by someone other than the dashboard's buttons
 * (here {@link RaceClient}, as the demo launcher does): {@code GET /race/progress}
 * reports it while it runs, and {@code GET /race/results} keeps its result with the stock
 * over time, which is what the dashboard's table and chart draw.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.url=jdbc:h2:mem:races;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"sample.instance-name=solo" })
@AutoConfigureInMemoryLocks
class RaceControllerTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private GatedRaceWindow gate;

	@Test
	void aRaceStartedThroughPostRaceReportsItsProgressAndKeepsItsStockOverTime() throws Exception {
		URI instance = URI.create("http://127.0.0.1:" + this.port);
		assertThat(send("/race/progress").statusCode()).as("no race yet").isEqualTo(204);
		List<RaceProgress> seen = new CopyOnWriteArrayList<>();
		CompletableFuture<RaceResult> race = CompletableFuture
			.supplyAsync(() -> RaceClient.create().race(instance, RaceMode.LOCKED, 20, 10, seen::add));
		// The first buyer holds the lock at the gate, so the race is under way until the
		// test opens it.
		await().atMost(Duration.ofSeconds(30)).until(() -> !seen.isEmpty());
		assertThat(seen.get(0)).satisfies((progress) -> {
			assertThat(progress.mode()).isEqualTo(RaceMode.LOCKED);
			assertThat(progress.done()).isFalse();
			assertThat(progress.stockOverTime()).startsWith(new StockSample(0, 10));
		});
		this.gate.open();
		RaceResult result = race.get(1, TimeUnit.MINUTES);

		assertThat(result.exact()).isTrue();
		assertThat(result.stockOverTime()).hasSizeGreaterThanOrEqualTo(2)
			.startsWith(new StockSample(0, 10))
			.last()
			.isEqualTo(new StockSample(result.elapsedMillis(), 0));
		assertThat(seen.get(seen.size() - 1)).isEqualTo(RaceProgress.finished(result));
		assertThat(send("/race/results").body()).contains("\"label\":\"Locked\"", "\"stockOverTime\":[{\"millis\":0,");
		assertThat(send("/race/progress").statusCode()).as("no race any more").isEqualTo(204);
	}

	private HttpResponse<String> send(String path) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class GateConfiguration {

		@Bean
		@Primary
		GatedRaceWindow gatedRaceWindow() {
			return new GatedRaceWindow();
		}

	}

	/** Holds every buyer between its read and its write until the test opens it. */
	static class GatedRaceWindow implements RaceWindow {

		private final CountDownLatch open = new CountDownLatch(1);

		void open() {
			this.open.countDown();
		}

		@Override
		public void between(String productName) {
			try {
				if (!this.open.await(1, TimeUnit.MINUTES)) {
					throw new IllegalStateException("The test never opened the gate");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

}
