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
	void theHandOverGapIsAlsoARatioToFloorPubSubForInformationBesideTheUnchangedTarget() {
		List<LockImplementation> implementations = Implementations.single()
			.stream()
			.filter(implementation -> List.of("floor", "floor-pubsub", "distlock").contains(implementation.name()))
			.toList();
		RepeatedReport report = new RepeatedReport(Map.of("date", "test"), implementations, Topology.SINGLE);
		// floor 400, floor-pubsub 800, distlock 1,000: 2.50 × floor, 1.25 × floor-pubsub.
		handoff(report.nextRun(), 400, 800, 1_000);
		handoff(report.nextRun(), 500, 1_000, 1_100);
		assertThat(report.ratioTo("floor-pubsub", "handoff", "distlock", "gapP50Us").median()).isCloseTo(1.175,
				within());
		String markdown = report.markdown();
		assertThat(markdown).contains("| gap p50 µs | × floor | × floor-pubsub | gap p99 µs | × floor |",
				"| `distlock` | 1,050 (1,000–1,100) | 2.35 (2.20–2.50) | 1.18 (1.10–1.25) |");
		String run = report.runs().get(0).markdown();
		assertThat(run).contains("| p50 × floor | p50 × floor-pubsub |",
				"| `distlock` | 500 | 1,000 | 2,000 | 2.50 | 1.25 |", "| hand-over gap p50 / floor | ≤ 1.50 | 2.50 ❌ |",
				"| hand-over gap p50 / floor-pubsub (for information, no target) | — | 1.25 |");
		assertThat(report.json()).contains("\"gapP50UsToFloorPubsub\": {");
		assertThat(report.runs().get(0).json()).contains("\"target\": \"hand-over gap p50 / floor\"")
			.doesNotContain("\"target\": \"hand-over gap p50 / floor-pubsub");
	}

	@Test
	void withoutFloorPubSubTheHandOverTablesAreAsBefore() {
		RepeatedReport report = new RepeatedReport(Map.of("date", "test"), IMPLEMENTATIONS, Topology.SINGLE);
		Report run = report.nextRun();
		run.add(handoff("floor", 400));
		run.add(handoff("distlock", 1_000));
		assertThat(report.markdown()).contains("| p50 × floor | Redis cmds/op |").doesNotContain("floor-pubsub");
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

	private static void handoff(Report run, double floor, double floorPubSub, double distlock) {
		run.add(handoff("floor", floor));
		run.add(handoff("floor-pubsub", floorPubSub));
		run.add(handoff("distlock", distlock));
	}

	private static ScenarioResult handoff(String implementation, double gapP50) {
		return new ScenarioResult("handoff", implementation,
				Map.of("handoffs", 500, "gapP50Us", gapP50, "gapP99Us", gapP50 * 2), null);
	}

	private static ScenarioResult result(String implementation, double p50) {
		return new ScenarioResult("uncontended", implementation,
				Map.of("p50Us", p50, "p99Us", p50 * 3, "cyclesPerSecond", 1e6 / p50), null);
	}

	private static org.assertj.core.data.Offset<Double> within() {
		return org.assertj.core.data.Offset.offset(1e-9);
	}

}
