package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs small test classes (static nested, so neither Surefire nor JUnit picks them up on
 * their own) through the JUnit launcher and checks what the extension did to their
 * servers.
 */
class RedisServerExtensionTests {

	/**
	 * The servers the nested classes saw, one entry per test or set-up method that ran.
	 */
	static final List<RedisServer> seen = new ArrayList<>();

	/**
	 * What each test of the nested classes found under the key {@code k} when it started.
	 */
	static final List<String> found = new ArrayList<>();

	@Test
	void startsTheServerOnceFlushesItBeforeEachTestAndStopsItAfterAll() {
		TestExecutionSummary summary = run(Flushing.class);

		assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
		assertThat(summary.getTotalFailureCount()).isZero();
		assertThat(seen).hasSize(2).containsOnly(seen.get(0));
		assertThat(found).as("k at the start of each test").containsExactly(null, null);
		assertThat(seen.get(0).isRunning()).isFalse();
	}

	@Test
	void withoutFlushingKeepsTheDataOfEarlierTests() {
		TestExecutionSummary summary = run(NotFlushing.class);

		assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
		assertThat(found).as("k at the start of each test").containsExactly(null, "v");
		assertThat(seen.get(0).isRunning()).isFalse();
	}

	@ParameterizedTest
	@ValueSource(classes = { FailingTest.class, FailingBeforeAll.class })
	void aFailingClassStillStopsItsServer(Class<?> failing) {
		TestExecutionSummary summary = run(failing);

		assertThat(summary.getTotalFailureCount()).isEqualTo(1);
		assertThat(summary.getTestsSucceededCount()).isZero();
		assertThat(seen).hasSize(1);
		assertThat(seen.get(0).isRunning()).isFalse();
	}

	@Test
	void startsTheServerFromTheGivenSupplier() {
		TestExecutionSummary summary = run(FromSupplier.class);

		assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
		assertThat(summary.getTotalFailureCount()).isZero();
		assertThat(seen.get(0).isRunning()).isFalse();
	}

	@Test
	void theServerIsOnlyAvailableWithinTheClassLifecycle() {
		RedisServerExtension extension = new RedisServerExtension();

		assertThatIllegalStateException().isThrownBy(extension::server).withMessageContaining("static field");
	}

	private static TestExecutionSummary run(Class<?> testClass) {
		seen.clear();
		found.clear();
		SummaryGeneratingListener listener = new SummaryGeneratingListener();
		LauncherFactory.create()
			.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(), listener);
		return listener.getSummary();
	}

	/** Two tests in a fixed order, each {@linkplain #record recording} what it found. */
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	abstract static class TwoTests {

		abstract RedisServerExtension redis();

		@Test
		@Order(1)
		void first() {
			record(redis());
		}

		@Test
		@Order(2)
		void second() {
			record(redis());
		}

	}

	static class Flushing extends TwoTests {

		@RegisterExtension
		static final RedisServerExtension redis = new RedisServerExtension();

		@Override
		RedisServerExtension redis() {
			return redis;
		}

	}

	static class NotFlushing extends TwoTests {

		@RegisterExtension
		static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

		@Override
		RedisServerExtension redis() {
			return redis;
		}

	}

	static class FailingTest {

		@RegisterExtension
		static final RedisServerExtension redis = new RedisServerExtension();

		@Test
		void fails() {
			seen.add(redis.server());
			throw new AssertionError("failing on purpose");
		}

	}

	static class FailingBeforeAll {

		@RegisterExtension
		static final RedisServerExtension redis = new RedisServerExtension();

		@BeforeAll
		static void failAfterTheServerStarted() {
			seen.add(redis.server());
			throw new IllegalStateException("failing on purpose");
		}

		@Test
		void neverRuns() {
		}

	}

	static class FromSupplier {

		@RegisterExtension
		static final RedisServerExtension redis = new RedisServerExtension(
				() -> RedisServer.builder().arg("maxmemory-policy", "noeviction").arg("databases", "3").start());

		@BeforeEach
		void serverIsEmptyAlready() {
			assertThat(redis.keys("*")).isEmpty();
		}

		@Test
		void runsWithTheConfiguredFlags() {
			seen.add(redis.server());
			assertThat(redis.command("CONFIG", "GET", "databases")).isEqualTo("databases\n3");
		}

	}

	/** Records the server, what {@code k} held, then sets {@code k}. */
	private static void record(RedisServerExtension redis) {
		seen.add(redis.server());
		found.add(redis.command("GET", "k"));
		redis.command("SET", "k", "v");
	}

}
