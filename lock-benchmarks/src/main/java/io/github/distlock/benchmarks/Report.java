package io.github.distlock.benchmarks;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/** Everything one run measured, rendered as Markdown tables and as JSON. */
final class Report {

	private final Map<String, Object> environment;

	private final List<LockImplementation> implementations;

	private final Topology topology;

	private final List<ScenarioResult> results = new ArrayList<>();

	private Map<String, Object> overhead = Map.of();

	Report(Map<String, Object> environment, List<LockImplementation> implementations) {
		this(environment, implementations, Topology.SINGLE);
	}

	/**
	 * A report of a run on {@code topology}. The targets of the benchmark issue are
	 * checked only on one {@code redis-server}: that is where they were set.
	 */
	Report(Map<String, Object> environment, List<LockImplementation> implementations, Topology topology) {
		this.environment = environment;
		this.implementations = implementations;
		this.topology = topology;
	}

	void add(ScenarioResult result) {
		results.add(result);
	}

	void overhead(Map<String, Object> overhead) {
		this.overhead = overhead;
	}

	List<ScenarioResult> results() {
		return List.copyOf(results);
	}

	@Nullable ScenarioResult result(String scenario, String implementation) {
		for (ScenarioResult result : results) {
			if (result.scenario().equals(scenario) && result.implementation().equals(implementation)
					&& result.error() == null) {
				return result;
			}
		}
		return null;
	}

	String json() {
		Map<String, Object> root = new LinkedHashMap<>();
		root.put("environment", environment);
		Map<String, Object> described = new LinkedHashMap<>();
		implementations.forEach(implementation -> described.put(implementation.name(), implementation.description()));
		root.put("implementations", described);
		root.putAll(measurements());
		return Json.write(root);
	}

	/**
	 * The JSON tree of what this run measured, without the environment and the
	 * implementations: results, annotation overhead and targets.
	 */
	Map<String, Object> measurements() {
		Map<String, Object> root = new LinkedHashMap<>();
		List<Object> all = new ArrayList<>();
		for (ScenarioResult result : results) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("scenario", result.scenario());
			entry.put("implementation", result.implementation());
			if (result.error() != null) {
				entry.put("error", result.error());
			}
			entry.put("metrics", result.metrics());
			all.add(entry);
		}
		root.put("results", all);
		root.put("annotationOverhead", overhead);
		root.put("targets", Targets.json(this, topology == Topology.SINGLE ? distlockRows() : List.of(), overhead));
		return root;
	}

	/** The generated part of {@code docs/benchmarks.md}. */
	String markdown() {
		return header() + tables();
	}

	/** The environment of the run and what each implementation runs. */
	String header() {
		StringBuilder md = new StringBuilder();
		md.append("### Run\n\n");
		environment.forEach((name, value) -> md.append("- **").append(name).append("**: ").append(value).append('\n'));
		md.append("\n| implementation | what runs |\n|---|---|\n");
		implementations.forEach(implementation -> md.append("| `")
			.append(implementation.name())
			.append("` | ")
			.append(implementation.description())
			.append(" |\n"));
		return md.toString();
	}

	/** One table per scenario, the annotation overhead, the targets and the commands. */
	String tables() {
		StringBuilder md = new StringBuilder();
		section(md, "1. Uncontended", "uncontended", "1 thread, one id, lock + unlock." + subscriptions(),
				List.of(column("cycles/s", r -> integer(r.number("cyclesPerSecond"))),
						column("p50 µs", r -> format(r.number("p50Us"), 1)),
						column("p99 µs", r -> format(r.number("p99Us"), 1)),
						ratioColumn("p50 × floor", "uncontended", "p50Us")),
				true);
		section(md, "2. Distinct ids", "distinct-ids", "16 threads of one instance, each locking its own id.",
				List.of(column("cycles/s", r -> integer(r.number("cyclesPerSecond"))),
						ratioColumn("× floor", "distinct-ids", "cyclesPerSecond"),
						column("p50 µs", r -> format(r.number("p50Us"), 1)),
						column("p99 µs", r -> format(r.number("p99Us"), 1))),
				true);
		section(md, "3. Contended", "contended",
				"16 threads over 2 instances (separate clients), one id, a non-atomic increment inside. "
						+ "*moved* = acquisitions that went to another thread than the previous owner; "
						+ "*exclusive* = final count equals acquisitions and no overlap was seen." + subscriptions(),
				List.of(column("acq/s", r -> integer(r.number("acquisitionsPerSecond"))),
						ratioColumn("× floor", "contended", "acquisitionsPerSecond"),
						column("moved", r -> format(r.number("movedToOtherThreadPercent"), 1) + " %"),
						column("wait p50 / p99 / max ms",
								r -> format(r.number("waitP50Ms"), 2) + " / " + format(r.number("waitP99Ms"), 1) + " / "
										+ format(r.number("waitMaxMs"), 1)),
						column("per thread min–max",
								r -> integer(r.number("perThreadMinAcquisitions")) + "–"
										+ integer(r.number("perThreadMaxAcquisitions"))),
						column("timeouts", r -> integer(r.number("timeouts"))),
						column("exclusive",
								r -> Boolean.TRUE.equals(r.metrics().get("mutualExclusion")) ? "yes"
										: "**NO** (" + integer(r.number("overlaps")) + " overlaps, count "
												+ integer(r.number("finalCount")) + " vs "
												+ integer(r.number("acquisitions")) + ")")),
				true);
		List<Column> handoff = new ArrayList<>(List.of(column("hand-overs", r -> integer(r.number("handoffs"))),
				column("gap p50 µs", r -> format(r.number("gapP50Us"), 0)),
				column("gap p99 µs", r -> format(r.number("gapP99Us"), 0)),
				ratioColumn("p50 × floor", "handoff", "gapP50Us")));
		if (ran(Implementations.FLOOR_PUBSUB)) {
			handoff.add(ratioColumn("p50 × floor-pubsub", "handoff", "gapP50Us", Implementations.FLOOR_PUBSUB));
		}
		section(md, "4. Hand-over across instances", "handoff",
				"Holder on one instance, waiter on another; gap from the end of the holder's critical section "
						+ "(before its release call) to the start of the waiter's."
						+ (ran(Implementations.FLOOR_PUBSUB) ? " *× floor-pubsub*: the same gap as a ratio to "
								+ "`floor-pubsub`'s, the floor whose waiter does not poll either (for information: "
								+ "the target is to `floor`)." : ""),
				handoff, true);
		section(md, "5. Many ids", "many-ids",
				"Distinct ids acquired and released once each by 16 threads of one instance; heap used after full "
						+ "GCs with the instance still open (2 s after the last release, so that background clean-up "
						+ "can run), minus the same before.",
				List.of(column("ids", r -> integer(r.number("ids"))),
						column("cycles/s", r -> integer(r.number("cyclesPerSecond"))),
						ratioColumn("× floor", "many-ids", "cyclesPerSecond"),
						column("retained MB", r -> format(r.number("retainedMb"), 1))),
				true);
		overheadSection(md);
		if (topology == Topology.SINGLE) {
			Targets.table(md, this, distlockRows(), overhead);
		}
		commandsSection(md);
		return md.toString();
	}

	private void section(StringBuilder md, String title, String scenario, String description, List<Column> columns,
			boolean costs) {
		if (results.stream().noneMatch(result -> result.scenario().equals(scenario))) {
			// Not run (--scenarios, or not a scenario of this topology): no empty table.
			return;
		}
		List<Column> all = new ArrayList<>(columns);
		if (costs) {
			all.add(column("Redis cmds/op", r -> format(r.number("redisCommandsPerOp"), 2)));
			all.add(column("client CPU µs/op", r -> format(r.number("clientCpuUsPerOp"), 0)));
			all.add(column("Redis CPU µs/op", r -> format(r.number("redisCpuUsPerOp"), 0)));
		}
		md.append("\n### ").append(title).append("\n\n").append(description).append("\n\n| implementation |");
		all.forEach(column -> md.append(' ').append(column.header()).append(" |"));
		md.append("\n|---|");
		all.forEach(column -> md.append("---:|"));
		md.append('\n');
		for (LockImplementation implementation : implementations) {
			for (ScenarioResult result : results) {
				if (!result.scenario().equals(scenario) || !result.implementation().equals(implementation.name())) {
					continue;
				}
				md.append("| `").append(implementation.name()).append("` |");
				if (result.error() != null) {
					md.append(" failed: ")
						.append(result.error().replace('|', '/').replace('\n', ' '))
						.append(" |".repeat(all.size()));
				}
				else {
					all.forEach(column -> md.append(' ').append(column.cell().apply(result)).append(" |"));
				}
				md.append('\n');
			}
		}
	}

	/** How the reactive rows' callers differ, on the topology that has them. */
	private String subscriptions() {
		return topology != Topology.REACTIVE ? "" : " In the `-reactive` rows each thread is a chain of "
				+ "subscriptions instead, one lock cycle after the other: no thread waits for a lock.";
	}

	private void overheadSection(StringBuilder md) {
		if (overhead.isEmpty()) {
			return;
		}
		md.append("\n### 6. Annotation overhead\n\n")
			.append("`@DistributedLock` method through the Spring proxy vs. the same `LockService.tryLock` + "
					+ "`close()` called directly, one thread, one id, alternating rounds; overhead = median of the "
					+ "per-round differences. *In memory* puts a JVM-local `LockService` behind the same proxy, "
					+ "which isolates the proxy's own cost from Redis round-trip noise.\n\n")
			.append("| against | rounds × calls | direct µs/call | annotated µs/call | overhead µs/call |\n")
			.append("|---|---:|---:|---:|---:|\n");
		for (String prefix : List.of("redis", "inMemory")) {
			md.append("| ")
				.append(prefix.equals("redis") ? "Redis" : "in memory")
				.append(" | ")
				.append(overhead.get(prefix + "Rounds"))
				.append(" × ")
				.append(overhead.get(prefix + "CallsPerRound"))
				.append(" | ")
				.append(overhead.get(prefix + "DirectUsPerCall"))
				.append(" | ")
				.append(overhead.get(prefix + "AnnotatedUsPerCall"))
				.append(" | ")
				.append(overhead.get(prefix + "OverheadUsPerCall"))
				.append(" |\n");
		}
	}

	private void commandsSection(StringBuilder md) {
		md.append("\n### Redis commands per operation\n\nFrom `INFO commandstats`, per lock + unlock cycle.\n\n")
			.append("| implementation | uncontended | contended (per acquisition) |\n|---|---|---|\n");
		for (LockImplementation implementation : implementations) {
			md.append("| `")
				.append(implementation.name())
				.append("` | ")
				.append(commands(result("uncontended", implementation.name())))
				.append(" | ")
				.append(commands(result("contended", implementation.name())))
				.append(" |\n");
		}
	}

	private static String commands(@Nullable ScenarioResult result) {
		if (result == null || !(result.metrics().get("redisCommandsPerOpByCommand") instanceof Map<?, ?> byCommand)) {
			return "—";
		}
		List<String> parts = new ArrayList<>();
		byCommand.forEach((command, perOp) -> {
			if (((Number) perOp).doubleValue() >= 0.01) {
				// Redis 7 names subcommands 'cluster|nodes': a '|' would end the table
				// cell.
				parts.add(String.valueOf(command).replace('|', ' ') + " " + perOp);
			}
		});
		return String.join(", ", parts);
	}

	private List<String> distlockRows() {
		return implementations.stream()
			.map(LockImplementation::name)
			.filter(name -> name.startsWith(Implementations.DISTLOCK))
			.toList();
	}

	/** Whether {@code implementation} is one of this run's. */
	private boolean ran(String implementation) {
		return implementations.stream().anyMatch(candidate -> candidate.name().equals(implementation));
	}

	private Column ratioColumn(String header, String scenario, String metric) {
		return ratioColumn(header, scenario, metric, Implementations.FLOOR);
	}

	/**
	 * {@code metric} as a ratio to {@code reference}'s in the same scenario of this run.
	 */
	private Column ratioColumn(String header, String scenario, String metric, String reference) {
		return column(header, r -> {
			ScenarioResult to = result(scenario, reference);
			return to == null ? "—" : format(r.number(metric) / to.number(metric), 2);
		});
	}

	private static Column column(String header, Function<ScenarioResult, String> cell) {
		return new Column(header, cell);
	}

	private record Column(String header, Function<ScenarioResult, String> cell) {
	}

	static double round(double value, int decimals) {
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			return value;
		}
		return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).doubleValue();
	}

	static double micros(long nanos) {
		return round(nanos / 1e3, 1);
	}

	static double millis(long nanos) {
		return round(nanos / 1e6, 2);
	}

	static String format(double value, int decimals) {
		return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%,." + decimals + "f", value);
	}

	static String integer(double value) {
		return format(value, 0);
	}

}
