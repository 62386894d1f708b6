package io.github.distlock.autoconfigure;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.web.LockNotAcquiredExceptionHandler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code distributed-lock.web.enabled=true} answers a {@link LockNotAcquiredException}
 * with a problem, its status and {@code Retry-After}, on Spring MVC and on WebFlux; off
 * by default, absent outside web applications, and a controller's own handler wins.
 */
class LockNotAcquiredWebAutoConfigurationTests {

	private final WebApplicationContextRunner servletRunner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockNotAcquiredWebAutoConfiguration.class))
		.withUserConfiguration(MvcConfiguration.class);

	private final ReactiveWebApplicationContextRunner reactiveRunner = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LockNotAcquiredWebAutoConfiguration.class))
		.withUserConfiguration(WebFluxConfiguration.class);

	@Test
	void isOffByDefault() {
		this.servletRunner.run((context) -> assertThat(context).doesNotHaveBean(LockNotAcquiredExceptionHandler.class));
	}

	@Test
	void isAbsentOutsideWebApplications() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LockNotAcquiredWebAutoConfiguration.class))
			.withPropertyValues("distributed-lock.web.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LockNotAcquiredExceptionHandler.class));
	}

	@Test
	void springMvcAnswers503WithRetryAfterAndAProblem() {
		this.servletRunner.withPropertyValues("distributed-lock.web.enabled=true").run((context) -> {
			MockMvc mvc = MockMvcBuilders.webAppContextSetup(context).build();
			mvc.perform(get("/buy"))
				.andExpect(status().isServiceUnavailable())
				.andExpect(header().string(HttpHeaders.RETRY_AFTER, "1"))
				.andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
				.andExpect(jsonPath("$.status").value(503))
				.andExpect(jsonPath("$.detail")
					.value("A lock this request needs was not acquired in time; try again later."));
		});
	}

	@Test
	void statusAndRetryAfterAreConfigurable() {
		this.servletRunner
			.withPropertyValues("distributed-lock.web.enabled=true", "distributed-lock.web.status=429",
					"distributed-lock.web.retry-after=1500ms")
			.run((context) -> MockMvcBuilders.webAppContextSetup(context)
				.build()
				.perform(get("/buy"))
				.andExpect(status().isTooManyRequests())
				.andExpect(header().string(HttpHeaders.RETRY_AFTER, "2"))
				.andExpect(jsonPath("$.status").value(429)));
	}

	@Test
	void retryAfterZeroSendsNoHeader() {
		this.servletRunner.withPropertyValues("distributed-lock.web.enabled=true", "distributed-lock.web.retry-after=0")
			.run((context) -> MockMvcBuilders.webAppContextSetup(context)
				.build()
				.perform(get("/buy"))
				.andExpect(status().isServiceUnavailable())
				.andExpect(header().doesNotExist(HttpHeaders.RETRY_AFTER)));
	}

	@Test
	void aControllersOwnHandlerWins() {
		this.servletRunner.withPropertyValues("distributed-lock.web.enabled=true")
			.withUserConfiguration(OwnHandlerController.class)
			.run((context) -> MockMvcBuilders.webAppContextSetup(context)
				.build()
				.perform(get("/own"))
				.andExpect(status().isConflict())
				.andExpect(content().string("busy: stock:apple")));
	}

	@Test
	void isAskedBeforeUnorderedAdvice() {
		this.servletRunner.withPropertyValues("distributed-lock.web.enabled=true")
			.withUserConfiguration(CatchAllAdvice.class)
			.run((context) -> MockMvcBuilders.webAppContextSetup(context)
				.build()
				.perform(get("/buy"))
				.andExpect(status().isServiceUnavailable()));
	}

	@Test
	void aStatusThatIsNotAnErrorFailsTheStartup() {
		this.servletRunner.withPropertyValues("distributed-lock.web.enabled=true", "distributed-lock.web.status=200")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("distributed-lock.web.status must be a 4xx or 5xx status, but was 200"));
	}

	@Test
	void backsOffFromTheApplicationsOwnHandler() {
		this.servletRunner.withPropertyValues("distributed-lock.web.enabled=true")
			.withBean(LockNotAcquiredExceptionHandler.class,
					() -> new LockNotAcquiredExceptionHandler(429, java.time.Duration.ZERO))
			.run((context) -> {
				assertThat(context).hasSingleBean(LockNotAcquiredExceptionHandler.class);
				MockMvcBuilders.webAppContextSetup(context)
					.build()
					.perform(get("/buy"))
					.andExpect(status().isTooManyRequests());
			});
	}

	@Test
	void webFluxAnswers503WithRetryAfterAndAProblem() {
		this.reactiveRunner.withPropertyValues("distributed-lock.web.enabled=true").run((context) -> {
			WebTestClient client = WebTestClient.bindToApplicationContext(context).build();
			client.get()
				.uri("/buy")
				.exchange()
				.expectStatus()
				.isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
				.expectHeader()
				.valueEquals(HttpHeaders.RETRY_AFTER, "1")
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
				.expectBody()
				.jsonPath("$.status")
				.isEqualTo(503)
				.jsonPath("$.detail")
				.isEqualTo("A lock this request needs was not acquired in time; try again later.");
		});
	}

	@RestController
	static class BuyController {

		@GetMapping("/buy")
		String buy() {
			throw new LockNotAcquiredException("stock:apple", "Lock 'stock:apple' was not acquired within 0s");
		}

	}

	@RestController
	static class OwnHandlerController {

		@GetMapping("/own")
		String buy() {
			throw new LockNotAcquiredException("stock:apple", "Lock 'stock:apple' was not acquired within 0s");
		}

		@ExceptionHandler(LockNotAcquiredException.class)
		ResponseEntity<String> busy(LockNotAcquiredException ex) {
			return ResponseEntity.status(HttpStatus.CONFLICT).body("busy: " + ex.getLockId());
		}

	}

	/** An application's catch-all mapping, without an order. */
	@RestControllerAdvice
	static class CatchAllAdvice {

		@ExceptionHandler(Exception.class)
		ResponseEntity<String> anything(Exception ex) {
			return ResponseEntity.internalServerError().body("failed");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	@Import(BuyController.class)
	static class MvcConfiguration {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebFlux
	static class WebFluxConfiguration {

		@Bean
		BuyController buyController() {
			return new BuyController();
		}

	}

}
