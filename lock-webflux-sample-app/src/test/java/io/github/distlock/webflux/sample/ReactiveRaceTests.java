package io.github.distlock.webflux.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.distlock.testsupport.BlockingCalls;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oversold race through the reactive path: two instances of the WebFlux sample on one
 * real {@code redis-server}, 100 items, 200 buyers at once over HTTP, half to each
 * instance. Exactly 100 are sold and none is lost, and BlockHound, watching Reactor's,
 * Reactor Netty's and Lettuce's threads in both instances, sees no blocking call.
 */
class ReactiveRaceTests {

	private static final Duration BOUND = Duration.ofSeconds(60);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final List<ConfigurableApplicationContext> instances = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void installBlockHound() {
		BlockingCalls.install();
	}

	@BeforeEach
	void startTwoInstances() {
		for (int i = 0; i < 2; i++) {
			this.instances.add(
					new SpringApplicationBuilder(WebFluxSampleApplication.class)
						.properties("server.port=0", "spring.data.redis.host=" + redis.server().host(),
								"spring.data.redis.port=" + redis.server().port())
						.run());
		}
		BlockingCalls.clear();
	}

	@AfterEach
	void stopInstances() {
		this.instances.forEach(ConfigurableApplicationContext::close);
	}

	private WebClient client(int instance) {
		String port = this.instances.get(instance).getEnvironment().getProperty("local.server.port");
		return WebClient.create("http://localhost:" + port);
	}

	private ReactiveShop.StockState state(int instance, String sku) {
		return client(instance).get()
			.uri("/products/" + sku)
			.retrieve()
			.bodyToMono(ReactiveShop.StockState.class)
			.block(BOUND);
	}

	@Test
	void twoHundredBuyersOnTwoInstancesBuyExactlyTheHundredItems() {
		client(0).put().uri("/products/apple/stock?amount=100").retrieve().toBodilessEntity().block(BOUND);
		Map<String, Long> answers = Flux.range(0, 200)
			.flatMap((buyer) -> client(buyer % 2).post()
				.uri("/products/apple/buy")
				.exchangeToMono((response) -> response.bodyToMono(String.class)
					.defaultIfEmpty("")
					.map((body) -> response.statusCode().value() + " " + body)), 200)
			.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()))
			.block(BOUND);
		assertThat(answers).containsExactlyInAnyOrderEntriesOf(Map.of("200 bought", 100L, "409 sold out", 100L));
		assertThat(state(1, "apple")).isEqualTo(new ReactiveShop.StockState("apple", 0, 100));
		assertThat(BlockingCalls.recorded()).isEmpty();
	}

	@Test
	void theUnlockedEndpointServesTheSameShop() {
		client(0).put().uri("/products/pear/stock?amount=1").retrieve().toBodilessEntity().block(BOUND);
		String answer = client(1).post()
			.uri("/products/pear/buy-unlocked")
			.retrieve()
			.bodyToMono(String.class)
			.block(BOUND);
		assertThat(answer).isEqualTo("bought");
		assertThat(state(0, "pear")).isEqualTo(new ReactiveShop.StockState("pear", 0, 1));
		assertThat(BlockingCalls.recorded()).isEmpty();
	}

}
