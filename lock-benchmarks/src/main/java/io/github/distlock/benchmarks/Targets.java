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
		if (report.result("handoff", Implementations.FLOOR_PUBSUB) != null) {
			checks.add(Check.information("hand-over gap p50 / floor-pubsub (for information, no target)",
					ratio(report, Implementations.FLOOR_PUBSUB, implementation, "handoff", "gapP50Us")));
		}
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
		md.append(
				"\n### Targets\n\nRatios are to `floor` in this run, unless a row names another implementation.\n\n| target | limit |");
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

	/**
	 * The targets of {@code rows}, then the annotation overhead's, as JSON entries; not
	 * the rows for information.
	 */
	static List<Object> json(Report report, List<String> rows, Map<String, Object> overhead) {
		List<Object> targets = new ArrayList<>();
		for (String implementation : rows) {
			for (Check check : evaluate(report, implementation)) {
				if (check.target()) {
					targets.add(check.json(implementation));
				}
			}
		}
		if (!overhead.isEmpty()) {
			targets.add(overhead(overhead).json(Implementations.DISTLOCK + "-annotation"));
		}
		return targets;
	}

	private static Check ratio(Report report, String implementation, String scenario, String metric, String what,
			double limit, boolean atMost) {
		return new Check(what, ratio(report, Implementations.FLOOR, implementation, scenario, metric), limit, atMost);
	}

	/** {@code metric} of {@code implementation} as a ratio to {@code reference}'s. */
	private static double ratio(Report report, String reference, String implementation, String scenario,
			String metric) {
		ScenarioResult to = report.result(scenario, reference);
		ScenarioResult mine = report.result(scenario, implementation);
		return to == null || mine == null ? Double.NaN : mine.number(metric) / to.number(metric);
	}

	private static Check absolute(Report report, String implementation, String scenario,
			ToDoubleFunction<ScenarioResult> metric, String what, double limit, boolean atMost) {
		ScenarioResult mine = report.result(scenario, implementation);
		return new Check(what, mine == null ? Double.NaN : metric.applyAsDouble(mine), limit, atMost);
	}

	/**
	 * One target: the measured value against its limit; or, with no limit (NaN), a value
	 * shown beside the targets for information.
	 */
	record Check(String what, double value, double limit, boolean atMost) {

		/** A row of the table that is no target: a value without a limit. */
		static Check information(String what, double value) {
			return new Check(what, value, Double.NaN, true);
		}

		boolean target() {
			return !Double.isNaN(limit);
		}

		boolean met() {
			return target() && !Double.isNaN(value) && (atMost ? value <= limit : value >= limit);
		}

		String limitText() {
			return target() ? (atMost ? "≤ " : "≥ ") + Report.format(limit, 2) : "—";
		}

		String text() {
			return Report.format(value, 2) + (!target() ? "" : met() ? " ✅" : " ❌");
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
