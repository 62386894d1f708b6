package io.github.distlock.sample.shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.distlock.test.LocalRedisServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP surface of one instance: the article's endpoint, reset, state, the dashboard's
 * race and bad input.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.url=jdbc:h2:mem:controller;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000",
				"sample.instance-name=solo", "sample.race-window=0ms" })
@LocalRedisServer
class ProductControllerTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Test
	void buysUntilSoldOutInEveryMode() throws Exception {
		for (String lock : new String[] { "N", "Y", "F" }) {
			assertThat(send("POST", "/product/reset?amount=1").statusCode()).isEqualTo(200);
			assertThat(send("GET", "/product/buy?lock=" + lock + "&buyer=ann").body()).isEqualTo("BOUGHT");
			assertThat(send("GET", "/product/buy?lock=" + lock + "&buyer=bob").body()).isEqualTo("SOLD_OUT");
			assertThat(send("GET", "/product/state").body()).contains("\"instance\":\"solo\"", "\"amount\":0",
					"\"purchases\":1", "\"boughtHere\":1");
			// Read under the READ lock of the product.
			assertThat(send("GET", "/product/state/locked").body()).contains("\"amount\":0", "\"purchases\":1");
		}
	}

	@Test
	void raceFromTheDashboardEndpointIsExactWhenLocked() throws Exception {
		HttpResponse<String> race = send("POST", "/race?mode=Y&buyers=30&stock=10");
		assertThat(race.statusCode()).isEqualTo(200);
		assertThat(race.body()).contains("\"surplus\":0", "\"records\":10", "\"exact\":true");
		assertThat(send("GET", "/race/results").body()).contains("\"label\":\"Locked\"");
		assertThat(send("GET", "/cluster").body()).contains("\"self\":true", "\"up\":true", "\"amount\":0");
	}

	@Test
	void rejectsBadInputNamingTheParameter() throws Exception {
		HttpResponse<String> badLock = send("GET", "/product/buy?lock=maybe");
		assertThat(badLock.statusCode()).isEqualTo(400);
		assertThat(badLock.body()).isEqualTo("Request parameter 'lock' must be Y, N or F, was 'maybe'");

		HttpResponse<String> badAmount = send("POST", "/product/reset?amount=-1");
		assertThat(badAmount.statusCode()).isEqualTo(400);
		assertThat(badAmount.body()).isEqualTo("amount must be between 0 and 100000, was -1");

		HttpResponse<String> badMode = send("POST", "/race?mode=X");
		assertThat(badMode.statusCode()).isEqualTo(400);
		assertThat(badMode.body()).isEqualTo("mode must be one of N, Y, F, was 'X'");

		HttpResponse<String> badBuyers = send("POST", "/race?mode=Y&buyers=0");
		assertThat(badBuyers.statusCode()).isEqualTo(400);
		assertThat(badBuyers.body()).isEqualTo("buyers must be between 1 and 1000, was 0");
	}

	@Test
	void servesTheDashboardAndExposesActuator() throws Exception {
		HttpResponse<String> page = send("GET", "/");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.body()).contains("id=\"run-Y\"", "dashboard.js");
		assertThat(send("GET", "/dashboard.js").statusCode()).isEqualTo(200);
		assertThat(send("GET", "/actuator/health").body()).contains("\"UP\"");
		assertThat(send("GET", "/actuator/metrics").statusCode()).isEqualTo(200);
	}

	private HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(60))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

}
