package io.github.distlock.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Proves the harness works, on a few operations per implementation: every adapter locks
 * and unlocks, the contended scenario finds mutual exclusion intact for each, a hand-over
 * between instances completes. Timing is never asserted; it belongs to the full run.
 */
class BenchmarkSmokeTests {

	private static final List<Scenario> SCENARIOS = List.of(new UncontendedScenario(), new ContendedScenario(),
			new HandoffScenario());

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	private static Report report;

	private static String progress;

	@BeforeAll
	static void runSmokeBenchmark() {
		report = new Report(Map.of("date", "test"), Implementations.single());
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		new BenchmarkRunner(new RedisNodes.Single(redis.server()), BenchmarkSettings.smoke(),
				new PrintStream(out, true, StandardCharsets.UTF_8))
			.run(report, Implementations.single(), SCENARIOS, false);
		progress = out.toString(StandardCharsets.UTF_8);
	}

	@Test
	void everyImplementationRanEveryScenario() {
		assertThat(report.results()).hasSize(Implementations.single().size() * SCENARIOS.size());
		assertThat(report.results()).as(progress).allSatisfy(result -> assertThat(result.error()).isNull());
	}

	@Test
	void everyImplementationLocksAndUnlocks() {
		for (LockImplementation implementation : Implementations.single()) {
			ScenarioResult uncontended = report.result("uncontended", implementation.name());
			assertThat(uncontended).as(implementation.name()).isNotNull();
			assertThat(uncontended.number("cycles")).as(implementation.name()).isPositive();
		}
	}

	@Test
	void contendedLockExcludesAcrossInstancesForEveryImplementation() {
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
		for (LockImplementation implementation : Implementations.single()) {
			ScenarioResult handoff = report.result("handoff", implementation.name());
			assertThat(handoff).as(implementation.name()).isNotNull();
			assertThat(handoff.number("handoffs")).isEqualTo(BenchmarkSettings.smoke().handoffs());
		}
	}

	@Test
	void reportsTablesAndJson() {
		String markdown = report.markdown();
		for (LockImplementation implementation : Implementations.single()) {
			assertThat(markdown).contains("| `" + implementation.name() + "` |");
		}
		assertThat(markdown).contains("### 3. Contended", "### Targets").doesNotContain("failed:");
		String json = report.json();
		assertThat(json).startsWith("{").contains("\"scenario\": \"contended\"", "\"mutualExclusion\": true");
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
