package io.github.distlock.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves the rows of {@code --topology=reactive} work, on a few operations per
 * implementation, in each of two runs ({@code --repeat=2}) on a harness-started
 * {@code redis-server}: every adapter, reactive or blocking, locks and unlocks in the
 * uncontended scenario, and in the contended one mutual exclusion holds across two
 * instances, the reactive callers being concurrent subscriptions. Timing is never
 * asserted.
 */
class ReactiveBenchmarkSmokeTests {

	private static final int RUNS = 2;

	private static final Topology TOPOLOGY = Topology.REACTIVE;

	private static RepeatedReport repeated;

	private static String progress;

	@BeforeAll
	static void runSmokeBenchmark() {
		repeated = new RepeatedReport(Map.of("date", "test"), TOPOLOGY.implementations(), TOPOLOGY);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (RedisNodes redis = TOPOLOGY.start()) {
			new BenchmarkRunner(redis, BenchmarkSettings.smoke(), new PrintStream(out, true, StandardCharsets.UTF_8))
				.repeat(RUNS, repeated, TOPOLOGY.implementations(), TOPOLOGY.scenarios(), false);
		}
		progress = out.toString(StandardCharsets.UTF_8);
		System.out.print(progress);
	}

	@Test
	void theImplementationsAndScenariosOfTheTopology() {
		assertThat(TOPOLOGY.implementations()).extracting(LockImplementation::name)
			.containsExactly("floor", "floor-reactive", "distlock", "distlock-reactive", "redisson",
					"redisson-reactive");
		assertThat(TOPOLOGY.scenarios()).extracting(Scenario::name).containsExactly("uncontended", "contended");
		assertThat(Topology.named("reactive")).isEqualTo(TOPOLOGY);
	}

	@Test
	void everyImplementationRanEveryScenarioInEveryRun() {
		assertThat(repeated.runs()).hasSize(RUNS);
		for (Report report : repeated.runs()) {
			assertThat(report.results()).hasSize(TOPOLOGY.implementations().size() * TOPOLOGY.scenarios().size());
			assertThat(report.results()).as(progress).allSatisfy(result -> assertThat(result.error()).isNull());
		}
	}

	@Test
	void everyImplementationLocksUnlocksAndExcludes() {
		for (Report report : repeated.runs()) {
			for (LockImplementation implementation : TOPOLOGY.implementations()) {
				String name = implementation.name();
				assertThat(report.result("uncontended", name).number("cycles")).as(name).isPositive();
				ScenarioResult contended = report.result("contended", name);
				assertThat(contended.number("acquisitions")).as(name).isPositive();
				assertThat(contended.number("overlaps")).as(name).isZero();
				assertThat(contended.number("finalCount")).as(name).isEqualTo(contended.number("acquisitions"));
				assertThat(contended.metrics()).as(name).containsEntry("mutualExclusion", true);
				// Every caller, thread or subscription chain, got the lock.
				assertThat(contended.number("perThreadMinAcquisitions")).as(name).isPositive();
			}
		}
	}

	@Test
	void reportsBothScenariosAndSaysHowTheReactiveRowsAreDriven() {
		String markdown = repeated.markdown();
		assertThat(markdown)
			.contains("### Medians over 2 runs", "#### 1. Uncontended", "#### 3. Contended",
					"In the `-reactive` rows each thread is a chain of subscriptions instead")
			.doesNotContain("failed", "### Targets", "#### 4. Hand-over");
		for (LockImplementation implementation : TOPOLOGY.implementations()) {
			assertThat(markdown).as(implementation.name())
				.containsPattern(
						"\\| `" + implementation.name() + "` \\|( " + BenchmarkSmokeTests.SPREAD + " \\|){6}\n");
		}
		assertThat(repeated.runs().get(0).json()).contains("\"mutualExclusion\": true", "\"targets\": []");
	}

}
