package io.github.distlock.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of {@code --repeat=N}: each run is a whole {@link Report} of its own (the
 * scenario set with its interleaved slices, ratios to that run's {@code floor}); this
 * report puts first, per scenario and implementation, the median of each run's p50, p99
 * and throughput and of its ratio to {@code floor} (the hand-over gap's p50 also to
 * {@code floor-pubsub}), each with its spread over the runs, then every run's own tables.
 * A single run is rendered exactly as {@link Report} renders it.
 */
final class RepeatedReport {

	/** The numbers summarised per scenario, in the order of the scenario tables. */
	static final List<ScenarioMeasures> MEASURES = List.of(
			new ScenarioMeasures("uncontended", "1. Uncontended",
					List.of(new Measure("p50 µs", "p50Us", 1), new Measure("p99 µs", "p99Us", 1),
							new Measure("cycles/s", "cyclesPerSecond", 0))),
			new ScenarioMeasures("distinct-ids", "2. Distinct ids",
					List.of(new Measure("p50 µs", "p50Us", 1), new Measure("p99 µs", "p99Us", 1),
							new Measure("cycles/s", "cyclesPerSecond", 0))),
			new ScenarioMeasures("contended", "3. Contended",
					List.of(new Measure("wait p50 ms", "waitP50Ms", 2), new Measure("wait p99 ms", "waitP99Ms", 1),
							new Measure("acq/s", "acquisitionsPerSecond", 0))),
			new ScenarioMeasures("handoff", "4. Hand-over across instances",
					List.of(new Measure("gap p50 µs", "gapP50Us", 0, List.of(Implementations.FLOOR_PUBSUB)),
							new Measure("gap p99 µs", "gapP99Us", 0))),
			new ScenarioMeasures("many-ids", "5. Many ids", List.of(new Measure("cycles/s", "cyclesPerSecond", 0))));

	private final Map<String, Object> environment;

	private final List<LockImplementation> implementations;

	private final Topology topology;

	private final List<Report> runs = new ArrayList<>();

	RepeatedReport(Map<String, Object> environment, List<LockImplementation> implementations, Topology topology) {
		this.environment = environment;
		this.implementations = implementations;
		this.topology = topology;
	}

	/** A new, empty run, added to this report. */
	Report nextRun() {
		Report run = new Report(environment, implementations, topology);
		runs.add(run);
		return run;
	}

	List<Report> runs() {
		return List.copyOf(runs);
	}

	/**
	 * The medians and spreads of {@code metric} of {@code implementation} in
	 * {@code scenario}: the value itself, and its ratio to {@code floor} of the same run.
	 */
	Spread spread(String scenario, String implementation, String metric) {
		return Spread.of(runs.stream().map(run -> value(run, scenario, implementation, metric)).toList());
	}

	/** The ratio of {@code metric} to {@code floor}'s, per run, as median and spread. */
	Spread ratioToFloor(String scenario, String implementation, String metric) {
		return ratioTo(Implementations.FLOOR, scenario, implementation, metric);
	}

	/**
	 * The ratio of {@code metric} to {@code reference}'s in the same run, per run, as
	 * median and spread.
	 */
	Spread ratioTo(String reference, String scenario, String implementation, String metric) {
		return Spread.of(runs.stream()
			.map(run -> value(run, scenario, implementation, metric) / value(run, scenario, reference, metric))
			.toList());
	}

	private static double value(Report run, String scenario, String implementation, String metric) {
		ScenarioResult result = run.result(scenario, implementation);
		return result == null ? Double.NaN : result.number(metric);
	}

	String markdown() {
		if (runs.size() == 1) {
			return runs.get(0).markdown();
		}
		StringBuilder md = new StringBuilder(runs.get(0).header());
		md.append("\n### Medians over ")
			.append(runs.size())
			.append(" runs\n\nThe whole scenario set ran ")
			.append(runs.size())
			.append(" times, one run after the other, each interleaving the implementations as a single run does. ")
			.append("Each cell: the median over the runs, then (min–max). *× floor*: the ratio to `floor` ")
			.append("of the same run, median (min–max) of those ratios.")
			.append(implementations.stream().anyMatch(i -> i.name().equals(Implementations.FLOOR_PUBSUB))
					? " *× floor-pubsub* (hand-over gap p50): the same to `floor-pubsub`, for information." : "")
			.append(" The tables of each run follow.\n");
		for (ScenarioMeasures scenario : MEASURES) {
			summaryTable(md, scenario);
		}
		for (int i = 0; i < runs.size(); i++) {
			md.append("\n<details><summary>Run ")
				.append(i + 1)
				.append(" of ")
				.append(runs.size())
				.append("</summary>\n")
				.append(runs.get(i).tables())
				.append("\n</details>\n");
		}
		return md.toString();
	}

	private void summaryTable(StringBuilder md, ScenarioMeasures scenario) {
		if (runs.stream()
			.allMatch(run -> run.results().stream().noneMatch(r -> r.scenario().equals(scenario.name())))) {
			return;
		}
		md.append("\n#### ").append(scenario.title()).append("\n\n| implementation |");
		for (Measure measure : scenario.measures()) {
			md.append(' ').append(measure.label()).append(" | × floor |");
			references(measure).forEach(reference -> md.append(" × ").append(reference).append(" |"));
		}
		md.append("\n|---|");
		for (Measure measure : scenario.measures()) {
			md.append("---:|---:|");
			references(measure).forEach(reference -> md.append("---:|"));
		}
		md.append('\n');
		List<String> failures = new ArrayList<>();
		for (LockImplementation implementation : implementations) {
			String name = implementation.name();
			md.append("| `").append(name).append("` |");
			for (Measure measure : scenario.measures()) {
				md.append(' ')
					.append(spread(scenario.name(), name, measure.metric()).text(measure.decimals()))
					.append(" | ")
					.append(ratioToFloor(scenario.name(), name, measure.metric()).text(2))
					.append(" |");
				for (String reference : references(measure)) {
					md.append(' ')
						.append(ratioTo(reference, scenario.name(), name, measure.metric()).text(2))
						.append(" |");
				}
			}
			md.append('\n');
			for (int i = 0; i < runs.size(); i++) {
				for (ScenarioResult result : runs.get(i).results()) {
					if (result.error() != null && result.scenario().equals(scenario.name())
							&& result.implementation().equals(name)) {
						failures.add("- `" + name + "` failed in run " + (i + 1) + ": "
								+ result.error().replace('\n', ' ') + "\n");
					}
				}
			}
		}
		if (!failures.isEmpty()) {
			md.append('\n');
			failures.forEach(md::append);
		}
	}

	String json() {
		if (runs.size() == 1) {
			return runs.get(0).json();
		}
		Map<String, Object> root = new LinkedHashMap<>();
		root.put("environment", environment);
		Map<String, Object> described = new LinkedHashMap<>();
		implementations.forEach(implementation -> described.put(implementation.name(), implementation.description()));
		root.put("implementations", described);
		root.put("repeat", runs.size());
		List<Object> summary = new ArrayList<>();
		for (ScenarioMeasures scenario : MEASURES) {
			for (LockImplementation implementation : implementations) {
				Map<String, Object> metrics = new LinkedHashMap<>();
				for (Measure measure : scenario.measures()) {
					Spread value = spread(scenario.name(), implementation.name(), measure.metric());
					if (value.runs() > 0) {
						metrics.put(measure.metric(), value.json(measure.decimals() + 1));
						metrics.put(measure.metric() + "ToFloor",
								ratioToFloor(scenario.name(), implementation.name(), measure.metric()).json(3));
						for (String reference : references(measure)) {
							metrics.put(measure.metric() + "To" + camelCase(reference),
									ratioTo(reference, scenario.name(), implementation.name(), measure.metric())
										.json(3));
						}
					}
				}
				if (!metrics.isEmpty()) {
					Map<String, Object> entry = new LinkedHashMap<>();
					entry.put("scenario", scenario.name());
					entry.put("implementation", implementation.name());
					entry.put("metrics", metrics);
					summary.add(entry);
				}
			}
		}
		root.put("summary", summary);
		root.put("runs", runs.stream().map(Report::measurements).toList());
		return Json.write(root);
	}

	/**
	 * The further references of {@code measure} that ran, each a column after
	 * {@code × floor}.
	 */
	private List<String> references(Measure measure) {
		return measure.alsoRelativeTo()
			.stream()
			.filter(reference -> implementations.stream().anyMatch(candidate -> candidate.name().equals(reference)))
			.toList();
	}

	/** {@code floor-pubsub} as {@code FloorPubsub}, for a JSON key. */
	private static String camelCase(String name) {
		StringBuilder camel = new StringBuilder();
		for (String part : name.split("-")) {
			camel.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
		}
		return camel.toString();
	}

	/**
	 * One number of a scenario's summary: its column header and its metric.
	 *
	 * @param alsoRelativeTo implementations other than {@code floor} the number is also
	 * given as a ratio to, for information (when they ran)
	 */
	record Measure(String label, String metric, int decimals, List<String> alsoRelativeTo) {

		Measure(String label, String metric, int decimals) {
			this(label, metric, decimals, List.of());
		}

	}

	/** The numbers summarised for one scenario. */
	record ScenarioMeasures(String name, String title, List<Measure> measures) {
	}

}
