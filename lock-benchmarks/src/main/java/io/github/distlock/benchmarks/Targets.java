package io.github.distlock.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The targets of the benchmark issue, checked for the distlock rows against the same
 * run's floor.
 */
final class Targets {

	private Targets() {
	}

	static List<Check> evaluate(Report report, String implementation) {
		List<Check> checks = new ArrayList<>();
		checks.add(ratio(report, implementation, "uncontended", "p50Us", "uncontended cycle p50 / floor", 1.05, true));
		checks.add(ratio(report, implementation, "distinct-ids", "cyclesPerSecond", "distinct ids cycles/s / floor",
				0.90, false));
		checks.add(ratio(report, implementation, "contended", "acquisitionsPerSecond",
				"contended acquisitions/s / floor", 1.0, false));
		checks.add(absolute(report, implementation, "contended", r -> r.number("movedToOtherThreadPercent"),
				"contended: % of acquisitions moving to another thread", 75, false));
		checks.add(absolute(report, implementation, "contended", r -> r.number("waitMaxMs"), "contended: max wait ms",
				50, true));
		checks.add(ratio(report, implementation, "handoff", "gapP50Us", "hand-over gap p50 / floor", 1.5, true));
		checks.add(absolute(report, implementation, "many-ids", r -> r.number("retainedMb"),
				"many ids: heap retained MB", 5, true));
		return checks;
	}

	static Check overhead(Map<String, Object> overhead) {
		Object value = overhead.get("inMemoryOverheadUsPerCall");
		double measured = value instanceof Number number ? number.doubleValue() : Double.NaN;
		return new Check("annotation overhead µs/call (proxy alone)", measured, 5, true);
	}

	/**
	 * The targets table of {@code report}: one column per distlock row ({@code rows}),
	 * the annotation overhead last if it was measured.
	 */
	static void table(StringBuilder md, Report report, List<String> rows, Map<String, Object> overhead) {
		md.append("\n### Targets\n\nRatios are to `floor` in this run.\n\n| target | limit |");
		rows.forEach(row -> md.append(" `").append(row).append("` |"));
		md.append("\n|---|---|");
		rows.forEach(row -> md.append("---|"));
		md.append('\n');
		if (!rows.isEmpty()) {
			List<Check> first = evaluate(report, rows.get(0));
			for (int i = 0; i < first.size(); i++) {
				md.append("| ").append(first.get(i).what()).append(" | ").append(first.get(i).limitText()).append(" |");
				for (String row : rows) {
					md.append(' ').append(evaluate(report, row).get(i).text()).append(" |");
				}
				md.append('\n');
			}
		}
		if (!overhead.isEmpty()) {
			Check check = overhead(overhead);
			md.append("| ").append(check.what()).append(" | ").append(check.limitText()).append(" |");
			rows.forEach(row -> md.append(row.equals(Implementations.DISTLOCK) ? " — |" : " " + check.text() + " |"));
			md.append('\n');
		}
	}

	/** The targets of {@code rows}, then the annotation overhead's, as JSON entries. */
	static List<Object> json(Report report, List<String> rows, Map<String, Object> overhead) {
		List<Object> targets = new ArrayList<>();
		for (String implementation : rows) {
			for (Check check : evaluate(report, implementation)) {
				targets.add(check.json(implementation));
			}
		}
		if (!overhead.isEmpty()) {
			targets.add(overhead(overhead).json(Implementations.DISTLOCK + "-annotation"));
		}
		return targets;
	}

	private static Check ratio(Report report, String implementation, String scenario, String metric, String what,
			double limit, boolean atMost) {
		ScenarioResult floor = report.result(scenario, Implementations.FLOOR);
		ScenarioResult mine = report.result(scenario, implementation);
		double value = floor == null || mine == null ? Double.NaN : mine.number(metric) / floor.number(metric);
		return new Check(what, value, limit, atMost);
	}

	private static Check absolute(Report report, String implementation, String scenario,
			ToDoubleFunction<ScenarioResult> metric, String what, double limit, boolean atMost) {
		ScenarioResult mine = report.result(scenario, implementation);
		return new Check(what, mine == null ? Double.NaN : metric.applyAsDouble(mine), limit, atMost);
	}

	/** One target: the measured value against its limit. */
	record Check(String what, double value, double limit, boolean atMost) {

		boolean met() {
			return !Double.isNaN(value) && (atMost ? value <= limit : value >= limit);
		}

		String limitText() {
			return (atMost ? "≤ " : "≥ ") + Report.format(limit, 2);
		}

		String text() {
			return Report.format(value, 2) + (met() ? " ✅" : " ❌");
		}

		Map<String, Object> json(String implementation) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("implementation", implementation);
			entry.put("target", what);
			entry.put("value", Report.round(value, 3));
			entry.put("limit", limitText());
			entry.put("met", met());
			return entry;
		}
	}

}
