package io.github.distlock.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * Entry point: {@code java -jar lock-benchmarks/target/lock-benchmarks.jar [options]}.
 *
 * <pre>
 * --topology=NAME     single (default: one redis-server), cluster (3 masters + 3 replicas), quorum (5
 *                     independent redis-servers), family (READ locks, semaphores and multi-key locks on
 *                     one redis-server) or reactive (the reactive locks, driven by subscriptions, beside
 *                     the blocking ones, on one redis-server); each has its own implementations and scenarios
 * --out=DIR           where results.md and results.json go (default target/benchmark-results)
 * --only=a,b          run only these implementations (floor is always added: ratios need it)
 * --scenarios=a,b     run only these scenarios (uncontended, distinct-ids, contended, handoff, many-ids), e.g.
 *                     to profile one; the annotation overhead runs only when all run
 * --smoke             a few operations of each kind, seconds instead of minutes: checks the harness only
 * --repeat=N          run the whole scenario set N times (default 1) and report, per scenario and
 *                     implementation, the median p50, p99 and throughput and their ratios to floor,
 *                     each with its spread (min–max) over the runs
 * --update-doc=FILE   also replace the topology's generated section of FILE (between its results
 *                     markers), e.g. docs/benchmarks.md
 * --scenario=held-locks  only the held-locks scenario, with options of its own ({@link HeldLocksMain})
 * </pre>
 */
public final class BenchmarkMain {

	static final String DOC_START = Topology.SINGLE.docStart();
	static final String DOC_END = Topology.SINGLE.docEnd();

	private BenchmarkMain() {
	}

	static final String USAGE = """
			Usage: java -jar lock-benchmarks/target/lock-benchmarks.jar [options]
			  --topology=NAME     single (default: one redis-server), cluster (3 masters + 3 replicas),
			                      quorum (5 independent redis-servers), family (READ locks, semaphores and
			                      multi-key locks on one redis-server) or reactive (reactive locks driven by
			                      subscriptions beside the blocking ones, on one redis-server)
			  --out=DIR           where results.md and results.json go (default target/benchmark-results)
			  --only=a,b          run only these implementations (floor is always added: ratios need it)
			  --scenarios=a,b     run only these scenarios (single: uncontended, distinct-ids, contended, handoff,
			                      many-ids; cluster and quorum: the first four; family and reactive:
			                      uncontended, contended)
			  --smoke             a few operations of each kind, seconds instead of minutes: checks the harness only
			  --repeat=N          run the whole scenario set N times (default 1); report per scenario and
			                      implementation the median p50, p99, throughput and ratio to floor, with min–max
			  --update-doc=FILE   also replace the topology's generated section of FILE, e.g. docs/benchmarks.md
			  --scenario=held-locks  only the held-locks scenario, with options of its own
			                      (--scenario=held-locks --help lists them)
			  --help              this text""";

	public static void main(String[] args) throws IOException {
		if (List.of(args).contains(HeldLocksMain.OPTION)) {
			if (List.of(args).contains("--help")) {
				System.out.println(HeldLocksMain.USAGE);
				return;
			}
			HeldLocksMain.main(args);
			return;
		}
		if (List.of(args).contains("--help")) {
			System.out.println(USAGE);
			return;
		}
		Options options;
		try {
			options = Options.parse(args);
		}
		catch (IllegalArgumentException ex) {
			// A bad option is the user's mistake, not a crash: say what was wrong, no
			// stack trace.
			System.err.println(ex.getMessage());
			System.err.println(USAGE);
			System.exit(2);
			return;
		}
		Instant started = Instant.now();
		double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
		RepeatedReport report;
		Topology topology = options.topology();
		try (RedisNodes redis = topology.start()) {
			Map<String, Object> environment = environment(topology, redis, options.settings(), started, args,
					loadBefore, true);
			report = new RepeatedReport(environment, options.implementations(), topology);
			new BenchmarkRunner(redis, options.settings(), System.err).repeat(options.repeat(), report,
					options.implementations(), options.scenarios(),
					topology == Topology.SINGLE && options.scenarios().equals(BenchmarkRunner.SCENARIOS));
			ended(environment, started);
		}
		write(options.out(), report.markdown(), report.json());
		if (options.updateDoc() != null) {
			updateDoc(options.updateDoc(), report.markdown(), topology);
			System.err.println("Updated the results section of " + options.updateDoc().toAbsolutePath());
		}
	}

	/** Notes in {@code environment} the load at the end and how long the run took. */
	static void ended(Map<String, Object> environment, Instant started) {
		environment.put("load average (1 min) at end",
				ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
		environment.put("duration",
				Duration.between(started, Instant.now())
					.truncatedTo(ChronoUnit.SECONDS)
					.toString()
					.substring(2)
					.toLowerCase());
	}

	/**
	 * Writes {@code results.md} and {@code results.json} to {@code out}, and prints them.
	 */
	static void write(Path out, String markdown, String json) throws IOException {
		Files.createDirectories(out);
		Path markdownFile = out.resolve("results.md");
		Path jsonFile = out.resolve("results.json");
		Files.writeString(markdownFile, markdown, StandardCharsets.UTF_8);
		Files.writeString(jsonFile, json, StandardCharsets.UTF_8);
		System.out.println(markdown);
		System.err.println("Wrote " + markdownFile.toAbsolutePath() + " and " + jsonFile.toAbsolutePath());
	}

	/**
	 * Replaces what lies between the markers of {@code topology} in {@code doc} with
	 * {@code section}; the rest of the document, the other topologies' results included,
	 * stays as it is.
	 */
	static void updateDoc(Path doc, String section, Topology topology) throws IOException {
		updateDoc(doc, section, topology.docStart(), topology.docEnd(), topology.option());
	}

	/**
	 * Replaces what lies between {@code startMarker} and {@code endMarker} in {@code doc}
	 * with {@code section}.
	 * @param what the section's name, for the error when the markers are missing
	 */
	static void updateDoc(Path doc, String section, String startMarker, String endMarker, String what)
			throws IOException {
		String text = Files.readString(doc, StandardCharsets.UTF_8);
		int start = text.indexOf(startMarker);
		int end = start < 0 ? -1 : text.indexOf(endMarker, start);
		if (start < 0 || end < 0) {
			throw new IllegalArgumentException(doc + " has no " + what + " results section: it needs a line '"
					+ startMarker + "' followed by a line '" + endMarker + "'");
		}
		String updated = text.substring(0, start + startMarker.length()) + "\n\n" + section + "\n"
				+ text.substring(end);
		Files.writeString(doc, updated, StandardCharsets.UTF_8);
	}

	/**
	 * The run's environment; with {@code roundTrip} also the Redis round trip, measured
	 * on the first metered node.
	 */
	static Map<String, Object> environment(Topology topology, RedisNodes redis, BenchmarkSettings settings,
			Instant started, String[] args, double loadBefore, boolean roundTrip) {
		Map<String, Object> environment = new LinkedHashMap<>();
		environment.put("date", started.truncatedTo(ChronoUnit.SECONDS).toString());
		environment.put("command",
				("java -jar lock-benchmarks/target/lock-benchmarks.jar " + String.join(" ", args)).trim());
		if (topology != Topology.SINGLE) {
			environment.put("topology", topology.option());
		}
		environment.put("cores", Runtime.getRuntime().availableProcessors());
		environment.put("cpu", cpuModel());
		environment.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
				+ System.getProperty("os.arch"));
		environment.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
		environment.put("max heap MB", Runtime.getRuntime().maxMemory() / 1048576);
		environment.put("redis", redis.describe());
		environment.put("libraries",
				"Redisson " + version(org.redisson.Redisson.class) + ", spring-integration-redis "
						+ version(org.springframework.integration.redis.util.RedisLockRegistry.class) + ", Lettuce "
						+ version(io.lettuce.core.RedisClient.class) + ", Spring Data Redis "
						+ version(org.springframework.data.redis.core.StringRedisTemplate.class));
		environment.put("load average (1 min) at start", loadBefore);
		if (!roundTrip) {
			return environment;
		}
		System.err.println("Redis round trip: measuring");
		environment.put("Redis round trip",
				RoundTrips.measure(redis.meteredNodes().get(0), settings.roundTrips(), settings.handoffHold()));
		return environment;
	}

	private static String version(Class<?> type) {
		String version = type.getPackage().getImplementationVersion();
		return version != null ? version : "?";
	}

	private static String cpuModel() {
		try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
			return lines.filter(line -> line.startsWith("model name"))
				.findFirst()
				.map(line -> line.substring(line.indexOf(':') + 1).trim())
				.orElse("?");
		}
		catch (IOException | RuntimeException e) {
			return "?";
		}
	}

	record Options(Topology topology, Path out, List<LockImplementation> implementations, List<Scenario> scenarios,
			BenchmarkSettings settings, int repeat, @Nullable Path updateDoc) {

		static Options parse(String[] args) {
			// The topology first: it decides which implementations and scenarios the
			// other options may name.
			Topology topology = Topology.SINGLE;
			for (String arg : args) {
				if (arg.startsWith("--topology=")) {
					topology = Topology.named(arg.substring("--topology=".length()));
				}
			}
			Path out = Path.of("target", "benchmark-results");
			List<LockImplementation> implementations = topology.implementations();
			BenchmarkSettings settings = BenchmarkSettings.full();
			Path updateDoc = null;
			int repeat = 1;
			List<Scenario> scenarios = topology.scenarios();
			for (String arg : args) {
				if (arg.startsWith("--topology=")) {
					continue;
				}
				if (arg.startsWith("--out=")) {
					out = Path.of(arg.substring("--out=".length()));
				}
				else if (arg.startsWith("--only=")) {
					implementations = only(topology, arg.substring("--only=".length()));
				}
				else if (arg.startsWith("--scenarios=")) {
					scenarios = scenarios(topology, arg.substring("--scenarios=".length()));
				}
				else if (arg.equals("--smoke")) {
					settings = BenchmarkSettings.smoke();
				}
				else if (arg.startsWith("--repeat=")) {
					repeat = parseRepeat(arg.substring("--repeat=".length()));
				}
				else if (arg.startsWith("--update-doc=")) {
					updateDoc = Path.of(arg.substring("--update-doc=".length()));
					if (!Files.isRegularFile(updateDoc)) {
						throw new IllegalArgumentException("--update-doc: no such file " + updateDoc.toAbsolutePath());
					}
				}
				else {
					throw new IllegalArgumentException("Unknown argument '" + arg
							+ "'; expected --topology=NAME, --out=DIR, --only=NAME[,NAME...], --scenarios=NAME[,NAME...], "
							+ "--smoke, --repeat=N or --update-doc=FILE");
				}
			}
			return new Options(topology, out, implementations, scenarios, settings, repeat, updateDoc);
		}

		private static int parseRepeat(String value) {
			try {
				int repeat = Integer.parseInt(value.trim());
				if (repeat >= 1) {
					return repeat;
				}
			}
			catch (NumberFormatException ex) {
				// Reported below, with the value.
			}
			throw new IllegalArgumentException(
					"--repeat: expected how many times to run the scenario set, a whole number of 1 or more, got '"
							+ value + "'");
		}

		private static List<Scenario> scenarios(Topology topology, String names) {
			List<String> wanted = Stream.of(names.split(","))
				.map(String::trim)
				.filter(name -> !name.isEmpty())
				.toList();
			List<String> known = topology.scenarios().stream().map(Scenario::name).toList();
			List<String> unknown = wanted.stream().filter(name -> !known.contains(name)).toList();
			if (wanted.isEmpty() || !unknown.isEmpty()) {
				throw new IllegalArgumentException("--scenarios: unknown scenario(s) " + unknown + " on topology "
						+ topology.option() + "; known: " + known);
			}
			return topology.scenarios().stream().filter(scenario -> wanted.contains(scenario.name())).toList();
		}

		private static List<LockImplementation> only(Topology topology, String names) {
			Set<String> wanted = Stream.of(names.split(","))
				.map(String::trim)
				.filter(name -> !name.isEmpty())
				.collect(Collectors.toCollection(java.util.LinkedHashSet::new));
			List<LockImplementation> all = topology.implementations();
			Set<String> known = all.stream().map(LockImplementation::name).collect(Collectors.toSet());
			List<String> unknown = wanted.stream().filter(name -> !known.contains(name)).toList();
			if (wanted.isEmpty() || !unknown.isEmpty()) {
				throw new IllegalArgumentException("--only: unknown implementation(s) " + unknown + " on topology "
						+ topology.option() + "; known: " + all.stream().map(LockImplementation::name).toList());
			}
			List<LockImplementation> selected = new ArrayList<>();
			for (LockImplementation implementation : all) {
				if (implementation.name().equals(Implementations.FLOOR) || wanted.contains(implementation.name())) {
					selected.add(implementation);
				}
			}
			return selected;
		}
	}

}
