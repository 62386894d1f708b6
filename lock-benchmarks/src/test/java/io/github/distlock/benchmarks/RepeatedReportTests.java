package io.github.distlock.benchmarks;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The arithmetic and the rendering of {@code --repeat=N} on made-up results, without
 * Redis: medians, spreads, ratios to the same run's {@code floor}, failed runs left out
 * and named, and a single run rendered exactly as before.
 */
class RepeatedReportTests {

	private static final List<LockImplementation> IMPLEMENTATIONS = Implementations.single()
		.stream()
		.filter(implementation -> List.of("floor", "distlock").contains(implementation.name()))
		.toList();

	@Test
	void mediansAndSpreadsOfTheValuesAndOfTheRatiosToTheSameRunsFloor() {
		RepeatedReport report = new RepeatedReport(Map.of("date", "test"), IMPLEMENTATIONS, Topology.SINGLE);
		// floor p50 10, 20, 40; distlock 12, 30, 44: ratios 1.2, 1.5, 1.1.
		uncontended(report.nextRun(), 10, 12);
		uncontended(report.nextRun(), 20, 30);
		uncontended(report.nextRun(), 40, 44);
		assertThat(report.spread("uncontended", "distlock", "p50Us")).isEqualTo(new Spread(30, 12, 44, 3));
		Spread ratio = report.ratioToFloor("uncontended", "distlock", "p50Us");
		assertThat(ratio.median()).isCloseTo(1.2, within());
		assertThat(ratio.min()).isCloseTo(1.1, within());
		assertThat(ratio.max()).isCloseTo(1.5, within());
		assertThat(report.ratioToFloor("uncontended", "floor", "p50Us")).isEqualTo(new Spread(1, 1, 1, 3));
		String markdown = report.markdown();
		assertThat(markdown)
			.contains("### Medians over 3 runs", "#### 1. Uncontended",
					"| `distlock` | 30.0 (12.0–44.0) | 1.20 (1.10–1.50) |", "<details><summary>Run 3 of 3</summary>")
			.doesNotContain("#### 3. Contended", "failed in run");
		assertThat(report.json()).contains("\"repeat\": 3", "\"summary\": [", "\"p50UsToFloor\": {", "\"median\": 1.2",
				"\"runs\": [");
	}

	@Test
	void anEvenNumberOfRunsTakesTheMeanOfTheMiddleTwo() {
		assertThat(Spread.of(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(new Spread(2.5, 1, 4, 4));
		assertThat(Spread.of(List.of(Double.NaN)).text(1)).isEqualTo("—");
	}

	@Test
	void aFailedRunIsLeftOutOfTheMedianAndNamed() {
		RepeatedReport report = new RepeatedReport(Map.of("date", "test"), IMPLEMENTATIONS, Topology.SINGLE);
		uncontended(report.nextRun(), 10, 12);
		Report second = report.nextRun();
		second.add(result("floor", 20));
		second.add(new ScenarioResult("uncontended", "distlock", Map.of(), "java.lang.IllegalStateException: boom"));
		assertThat(report.spread("uncontended", "distlock", "p50Us")).isEqualTo(new Spread(12, 12, 12, 1));
		assertThat(report.markdown()).contains("- `distlock` failed in run 2: java.lang.IllegalStateException: boom");
	}

	@Test
	void oneRunIsRenderedExactlyAsASingleReport() {
		RepeatedReport report = new RepeatedReport(Map.of("date", "test"), IMPLEMENTATIONS, Topology.SINGLE);
		Report run = report.nextRun();
		uncontended(run, 10, 12);
		assertThat(report.markdown()).isEqualTo(run.markdown()).doesNotContain("Medians", "<details>");
		assertThat(report.json()).isEqualTo(run.json());
	}

	@Test
	void repeatIsAWholeNumberOfOneOrMore() {
		assertThat(BenchmarkMain.Options.parse(new String[0]).repeat()).isEqualTo(1);
		assertThat(BenchmarkMain.Options.parse(new String[] { "--repeat=3" }).repeat()).isEqualTo(3);
		for (String bad : List.of("0", "-1", "two", "")) {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> BenchmarkMain.Options.parse(new String[] { "--repeat=" + bad }))
				.withMessageContaining("--repeat")
				.withMessageContaining("got '" + bad + "'");
		}
	}

	private static void uncontended(Report run, double floorP50, double distlockP50) {
		run.add(result("floor", floorP50));
		run.add(result("distlock", distlockP50));
	}

	private static ScenarioResult result(String implementation, double p50) {
		return new ScenarioResult("uncontended", implementation,
				Map.of("p50Us", p50, "p99Us", p50 * 3, "cyclesPerSecond", 1e6 / p50), null);
	}

	private static org.assertj.core.data.Offset<Double> within() {
		return org.assertj.core.data.Offset.offset(1e-9);
	}

}
