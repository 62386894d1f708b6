package io.github.distlock.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Proves the harness works, on a few operations per implementation, in each of two runs
 * ({@code --repeat=2}): every adapter locks and unlocks, the contended scenario finds
 * mutual exclusion intact for each, a hand-over between instances completes, and the
 * report summarises the two runs as medians with their spreads. Timing is never asserted;
 * it belongs to the full run.
 */
class BenchmarkSmokeTests {

	private static final List<Scenario> SCENARIOS = List.of(new UncontendedScenario(), new ContendedScenario(),
			new HandoffScenario());

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	private static final int RUNS = 2;

	private static RepeatedReport repeated;

	private static String progress;

	@BeforeAll
	static void runSmokeBenchmark() {
		repeated = new RepeatedReport(Map.of("date", "test"), Implementations.single(), Topology.SINGLE);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		new BenchmarkRunner(new RedisNodes.Single(redis.server()), BenchmarkSettings.smoke(),
				new PrintStream(out, true, StandardCharsets.UTF_8))
			.repeat(RUNS, repeated, Implementations.single(), SCENARIOS, false);
		progress = out.toString(StandardCharsets.UTF_8);
	}

	@Test
	void everyImplementationRanEveryScenarioInEveryRun() {
		assertThat(repeated.runs()).hasSize(RUNS);
		assertThat(progress).contains("run 1 of 2", "run 2 of 2");
		for (Report report : repeated.runs()) {
			assertThat(report.results()).hasSize(Implementations.single().size() * SCENARIOS.size());
			assertThat(report.results()).as(progress).allSatisfy(result -> assertThat(result.error()).isNull());
		}
	}

	@Test
	void everyImplementationLocksAndUnlocks() {
		Report report = repeated.runs().get(RUNS - 1);
		for (LockImplementation implementation : Implementations.single()) {
			ScenarioResult uncontended = report.result("uncontended", implementation.name());
			assertThat(uncontended).as(implementation.name()).isNotNull();
			assertThat(uncontended.number("cycles")).as(implementation.name()).isPositive();
		}
	}

	@Test
	void contendedLockExcludesAcrossInstancesForEveryImplementation() {
		for (Report report : repeated.runs()) {
			contendedLockExcludes(report);
		}
	}

	private static void contendedLockExcludes(Report report) {
		for (LockImplementation implementation : Implementations.single()) {
			ScenarioResult contended = report.result("contended", implementation.name());
			assertThat(contended).as(implementation.name()).isNotNull();
			assertThat(contended.number("acquisitions")).as(implementation.name()).isPositive();
			assertThat(contended.number("overlaps")).as(implementation.name()).isZero();
			assertThat(contended.number("finalCount")).as(implementation.name())
				.isEqualTo(contended.number("acquisitions"));
			assertThat(contended.metrics()).as(implementation.name()).containsEntry("mutualExclusion", true);
		}
	}

	@Test
	void everyHandOverBetweenInstancesCompletes() {
		Report report = repeated.runs().get(0);
		for (LockImplementation implementation : Implementations.single()) {
			ScenarioResult handoff = report.result("handoff", implementation.name());
			assertThat(handoff).as(implementation.name()).isNotNull();
			assertThat(handoff.number("handoffs")).isEqualTo(BenchmarkSettings.smoke().handoffs());
		}
	}

	@Test
	void reportsTablesAndJson() {
		Report report = repeated.runs().get(0);
		String markdown = report.markdown();
		for (LockImplementation implementation : Implementations.single()) {
			assertThat(markdown).contains("| `" + implementation.name() + "` |");
		}
		assertThat(markdown)
			.contains("### 3. Contended", "### Targets", "| p50 × floor | p50 × floor-pubsub |",
					"| hand-over gap p50 / floor | ≤ 1.50 |",
					"| hand-over gap p50 / floor-pubsub (for information, no target) | — |")
			.doesNotContain("failed:");
		String json = report.json();
		assertThat(json).startsWith("{").contains("\"scenario\": \"contended\"", "\"mutualExclusion\": true");
	}

	@Test
	void summarisesTheRunsAsMediansWithTheirSpreads() {
		String markdown = repeated.markdown();
		assertThat(markdown)
			.contains("### Medians over 2 runs", "#### 1. Uncontended", "#### 3. Contended",
					"#### 4. Hand-over across instances", "<details><summary>Run 1 of 2</summary>",
					"<details><summary>Run 2 of 2</summary>")
			.doesNotContain("failed");
		for (LockImplementation implementation : Implementations.single()) {
			String name = implementation.name();
			// p50 µs, × floor, p99 µs, × floor, cycles/s, × floor: each "median
			// (min–max)".
			assertThat(markdown).as(name).containsPattern("\\| `" + name + "` \\|( " + SPREAD + " \\|){6}\n");
			for (String metric : List.of("p50Us", "p99Us", "cyclesPerSecond")) {
				double first = repeated.runs().get(0).result("uncontended", name).number(metric);
				double second = repeated.runs().get(1).result("uncontended", name).number(metric);
				assertThat(repeated.spread("uncontended", name, metric)).as(name + " " + metric)
					.isEqualTo(new Spread((first + second) / 2, Math.min(first, second), Math.max(first, second), 2));
				assertThat(repeated.ratioToFloor("uncontended", name, metric).runs()).isEqualTo(2);
			}
		}
		assertThat(markdown).contains("| `floor` | ").contains("| 1.00 (1.00–1.00) |");
		assertThat(markdown).contains("| gap p50 µs | × floor | × floor-pubsub |");
		assertThat(repeated.json()).contains("\"repeat\": 2", "\"waitP50MsToFloor\": {", "\"gapP99Us\": {",
				"\"gapP50UsToFloorPubsub\": {", "\"min\": ", "\"max\": ");
	}

	/** A number, then its spread in brackets: {@code 1,234.5 (1,200.0–1,300.0)}. */
	static final String SPREAD = "[\\d,.]+ \\([\\d,.]+–[\\d,.]+\\)";

	@Test
	void measuresTheRoundTripBackToBackAndAfterIdling() {
		assertThat(RoundTrips.measure(redis.server(), 5, Duration.ofMillis(1)))
			.matches("[\\d,]+ µs back to back, [\\d,]+ µs after 1 ms idle \\(PING p50 over 5 each, .*\\)");
	}

	@Test
	void updatesOnlyTheGeneratedSectionOfTheResultsDocument(@TempDir Path directory) throws IOException {
		Path doc = directory.resolve("benchmarks.md");
		Files.writeString(doc,
				"# Title\nreading\n" + BenchmarkMain.DOC_START + "\nold\n" + BenchmarkMain.DOC_END + "\nafter\n");
		BenchmarkMain.updateDoc(doc, "new table\n", Topology.SINGLE);
		assertThat(Files.readString(doc)).isEqualTo("# Title\nreading\n" + BenchmarkMain.DOC_START + "\n\nnew table\n\n"
				+ BenchmarkMain.DOC_END + "\nafter\n");
	}

	@Test
	void rejectsUnknownArgumentsAndImplementationsByName() {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkMain.Options.parse(new String[] { "--fast" }))
			.withMessageContaining("'--fast'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkMain.Options.parse(new String[] { "--only=distlock,jedis" }))
			.withMessageContaining("[jedis]");
		assertThat(BenchmarkMain.Options.parse(new String[] { "--only=distlock" }).implementations())
			.extracting(LockImplementation::name)
			.containsExactly("floor", "distlock");
	}

}
