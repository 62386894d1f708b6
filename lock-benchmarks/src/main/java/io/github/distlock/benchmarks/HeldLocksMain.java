package io.github.distlock.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * {@code --scenario=held-locks}: the {@linkplain HeldLocksScenario held-locks scenario}
 * alone, for distlock and Redisson, on one {@code redis-server} or a Redis Cluster, for
 * each number of held locks, {@code --repeat} times. The implementations run one after
 * the other, never two open at once, each on an emptied Redis; their order alternates
 * from run to run.
 */
final class HeldLocksMain {

	static final String OPTION = "--scenario=held-locks";

	static final String USAGE = """
			Usage: java -jar lock-benchmarks/target/lock-benchmarks.jar --scenario=held-locks [options]
			  --held=N[,N...]     how many locks to hold at once (default 10000,100000)
			  --hold-seconds=S    how long to hold them (default 60)
			  --topology=NAME     single (default) or cluster
			  --only=a,b          distlock, distlock-reactive, redisson (default all)
			  --repeat=N          run everything N times (default 1); report medians with min–max
			  --out=DIR           where results.md and results.json go (default target/benchmark-results)
			  --update-doc=FILE   also replace the held-locks section of FILE, e.g. docs/benchmarks.md""";

	private HeldLocksMain() {
	}

	/** An implementation that holds locks. */
	record Holder(String name, String description, Function<RedisNodes, LockHolder> connector) {
	}

	static List<Holder> holders(Topology topology) {
		boolean cluster = topology == Topology.CLUSTER;
		return List.of(new Holder(Implementations.DISTLOCK,
				"distlock LockService.tryLock(id, 0, null): auto-renewed lease, distributed-lock.lease-time 30 s "
						+ "(default), renewed about every 10 s",
				redis -> new DistlockHolder(
						cluster ? DistlockApplications.onCluster(redis.cluster(), Duration.ofSeconds(30))
								: DistlockApplications.onRedis(redis.server(), Duration.ofSeconds(30)))),
				new Holder(Implementations.DISTLOCK + "-reactive",
						"distlock ReactiveLockService.tryLock(id, 0, null): auto-renewed lease, "
								+ "distributed-lock.lease-time 30 s (default), renewed about every 10 s",
						redis -> new DistlockReactiveHolder(
								cluster ? DistlockApplications.onCluster(redis.cluster(), Duration.ofSeconds(30))
										: DistlockApplications.onRedis(redis.server(), Duration.ofSeconds(30)))),
				new Holder("redisson",
						"Redisson RLock.tryLock(): watchdog, lockWatchdogTimeout 30 s, renewed every 10 s"
								+ (cluster ? ", useClusterServers" : ""),
						redis -> cluster ? RedissonHolder.cluster(redis.cluster())
								: RedissonHolder.single(redis.server())));
	}

	static void main(String[] args) throws IOException {
		Options options;
		try {
			options = Options.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.println(USAGE);
			System.exit(2);
			return;
		}
		Instant started = Instant.now();
		double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
		HeldLocksReport report;
		try (RedisNodes redis = options.topology().start()) {
			Map<String, Object> environment = BenchmarkMain.environment(options.topology(), redis,
					BenchmarkSettings.full(), started, args, loadBefore, false);
			environment.put("hold", options.hold().toSeconds() + " s, " + HeldLocksScenario.THREADS
					+ " threads acquiring, keys read 1 s and 10 s after the last release");
			report = new HeldLocksReport(environment, options.holders(), options.topology());
			run(redis, options, report, Duration.ofSeconds(1), System.err);
			BenchmarkMain.ended(environment, started);
		}
		BenchmarkMain.write(options.out(), report.markdown(), report.json());
		if (options.updateDoc() != null) {
			BenchmarkMain.updateDoc(options.updateDoc(), report.markdown(), report.docStart(), report.docEnd(),
					"held-locks " + options.topology().option());
			System.err.println("Updated the held-locks section of " + options.updateDoc().toAbsolutePath());
		}
	}

	/**
	 * Runs every holder for every number of ids, {@code options.repeat()} times, into
	 * {@code report}; a failing holder is reported in its row and does not stop the
	 * others.
	 */
	static void run(RedisNodes redis, Options options, HeldLocksReport report, Duration settle, PrintStream progress) {
		HeldLocksScenario scenario = new HeldLocksScenario(new RedisGauges(redis.meteredNodes()), options.hold(),
				settle);
		for (int run = 1; run <= options.repeat(); run++) {
			List<Holder> order = new ArrayList<>(options.holders());
			Collections.rotate(order, run - 1);
			for (int ids : options.held()) {
				for (Holder holder : order) {
					progress.printf("run %d of %d, %s, %,d held: ", run, options.repeat(), holder.name(), ids);
					try {
						Map<String, Object> metrics = runOne(redis, scenario, holder, ids);
						report.add(run, holder.name(), ids, metrics, null);
						progress.println(metrics);
					}
					catch (RuntimeException ex) {
						report.add(run, holder.name(), ids, Map.of(), ex.toString());
						progress.println("FAILED " + ex);
					}
				}
			}
		}
	}

	private static Map<String, Object> runOne(RedisNodes redis, HeldLocksScenario scenario, Holder holder, int ids) {
		redis.flushAll();
		try (LockHolder locks = holder.connector().apply(redis)) {
			// Warm-up: the code paths once, then an empty Redis again.
			int warm = Math.min(1_000, ids);
			List<LockHolder.Hold> holds = new ArrayList<>();
			for (int i = 0; i < warm; i++) {
				holds.add(locks.hold("warm:" + i));
			}
			holds.forEach(LockHolder.Hold::release);
			redis.flushAll();
			return scenario.run(locks, holder.name(), ids);
		}
	}

	record Options(Topology topology, Path out, List<Holder> holders, List<Integer> held, Duration hold, int repeat,
			@Nullable Path updateDoc) {

		static Options parse(String[] args) {
			Topology topology = Topology.SINGLE;
			Path out = Path.of("target", "benchmark-results");
			List<String> only = List.of();
			List<Integer> held = List.of(10_000, 100_000);
			Duration hold = Duration.ofSeconds(60);
			int repeat = 1;
			Path updateDoc = null;
			for (String arg : args) {
				String value = arg.substring(arg.indexOf('=') + 1);
				if (arg.equals(OPTION)) {
					continue;
				}
				if (arg.startsWith("--topology=")) {
					topology = Topology.named(value);
					if (topology != Topology.SINGLE && topology != Topology.CLUSTER) {
						throw new IllegalArgumentException(
								"--topology: held-locks runs on single or cluster, not " + topology.option());
					}
				}
				else if (arg.startsWith("--out=")) {
					out = Path.of(value);
				}
				else if (arg.startsWith("--only=")) {
					only = Stream.of(value.split(",")).map(String::trim).filter(name -> !name.isEmpty()).toList();
				}
				else if (arg.startsWith("--held=")) {
					held = Stream.of(value.split(",")).map(text -> positive("--held", text)).toList();
				}
				else if (arg.startsWith("--hold-seconds=")) {
					hold = Duration.ofSeconds(positive("--hold-seconds", value));
				}
				else if (arg.startsWith("--repeat=")) {
					repeat = positive("--repeat", value);
				}
				else if (arg.startsWith("--update-doc=")) {
					updateDoc = Path.of(value);
					if (!Files.isRegularFile(updateDoc)) {
						throw new IllegalArgumentException("--update-doc: no such file " + updateDoc.toAbsolutePath());
					}
				}
				else {
					throw new IllegalArgumentException("Unknown argument '" + arg + "' for " + OPTION
							+ "; expected --held=N[,N...], --hold-seconds=S, --topology=single|cluster, "
							+ "--only=NAME[,NAME...], --repeat=N, --out=DIR or --update-doc=FILE");
				}
			}
			return new Options(topology, out, selected(topology, only), held, hold, repeat, updateDoc);
		}

		private static List<Holder> selected(Topology topology, List<String> only) {
			List<Holder> all = HeldLocksMain.holders(topology);
			List<String> known = all.stream().map(Holder::name).toList();
			List<String> unknown = only.stream().filter(name -> !known.contains(name)).toList();
			if (!unknown.isEmpty()) {
				throw new IllegalArgumentException(
						"--only: unknown implementation(s) " + unknown + " for held-locks; known: " + known);
			}
			return only.isEmpty() ? all : all.stream().filter(holder -> only.contains(holder.name())).toList();
		}

		private static int positive(String option, String value) {
			try {
				int number = Integer.parseInt(value.trim());
				if (number >= 1) {
					return number;
				}
			}
			catch (NumberFormatException ex) {
				// Reported below, with the value.
			}
			throw new IllegalArgumentException(option + ": expected a whole number of 1 or more, got '" + value + "'");
		}

	}

}
