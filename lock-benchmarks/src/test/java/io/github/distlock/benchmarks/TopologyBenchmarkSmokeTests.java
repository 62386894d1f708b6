package io.github.distlock.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import io.github.distlock.testsupport.RedisClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Proves the cluster, quorum and lock-family rows of the harness work, on a few
 * operations per implementation, each on the topology the harness starts for it (a 3 + 3
 * Redis Cluster, 5 independent servers, one server; closed before the assertions): in the
 * contended scenario every adapter locks and unlocks, and mutual exclusion holds across
 * two instances (for a read lock or a semaphore: never more holders than it admits), in
 * each of two runs ({@code --repeat=2}) that the report summarises as medians with their
 * spreads. Timing is never asserted.
 */
class TopologyBenchmarkSmokeTests {

	/**
	 * The contended scenario alone: two instances of each implementation lock, unlock and
	 * must exclude each other. The other scenarios run the same adapters through code
	 * {@link BenchmarkSmokeTests} covers; each scenario costs every implementation new
	 * application instances (Spring contexts, up to ten Redisson clients), the bulk of
	 * this test's time.
	 */
	private static final List<Scenario> SCENARIOS = List.of(new ContendedScenario());

	private static final int RUNS = 2;

	private static final Map<Topology, RepeatedReport> reports = new EnumMap<>(Topology.class);

	private static final Map<Topology, String> progress = new EnumMap<>(Topology.class);

	@BeforeAll
	static void runSmokeBenchmarks() {
		for (Topology topology : List.of(Topology.CLUSTER, Topology.QUORUM, Topology.FAMILY)) {
			if (topology == Topology.CLUSTER && !clusterSupported()) {
				continue;
			}
			long start = System.nanoTime();
			RepeatedReport report = new RepeatedReport(Map.of("date", "test"), topology.implementations(), topology);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			try (RedisNodes redis = topology.start()) {
				new BenchmarkRunner(redis, BenchmarkSettings.smoke(),
						new PrintStream(out, true, StandardCharsets.UTF_8))
					.repeat(RUNS, report, topology.implementations(), SCENARIOS, false);
			}
			reports.put(topology, report);
			progress.put(topology, out.toString(StandardCharsets.UTF_8));
			System.out.print(progress.get(topology));
			System.out.printf("[topology-smoke] %s: %d implementations x %d scenarios x %d runs in %.1f s%n",
					topology.option(), topology.implementations().size(), SCENARIOS.size(), RUNS,
					(System.nanoTime() - start) / 1e9);
		}
	}

	/**
	 * Whether this machine's {@code redis-server} can form a cluster (7.0 or newer);
	 * without {@code CI=true} an older one skips the cluster tests, naming what to
	 * install.
	 */
	private static boolean clusterSupported() {
		try {
			RedisClusterExtension.assumeClusterSupported();
			return true;
		}
		catch (TestAbortedException skipped) {
			return false;
		}
	}

	private static RepeatedReport report(Topology topology) {
		if (topology == Topology.CLUSTER) {
			RedisClusterExtension.assumeClusterSupported();
		}
		return reports.get(topology);
	}

	@ParameterizedTest
	@EnumSource(value = Topology.class, names = { "CLUSTER", "QUORUM", "FAMILY" })
	void everyImplementationRanEveryScenarioInEveryRun(Topology topology) {
		assertThat(report(topology).runs()).hasSize(RUNS);
		for (Report report : report(topology).runs()) {
			assertThat(report.results()).hasSize(topology.implementations().size() * SCENARIOS.size());
			assertThat(report.results()).as(progress.get(topology))
				.allSatisfy(result -> assertThat(result.error()).isNull());
		}
	}

	@ParameterizedTest
	@EnumSource(value = Topology.class, names = { "CLUSTER", "QUORUM", "FAMILY" })
	void everyImplementationLocksUnlocksAndExcludes(Topology topology) {
		for (Report report : report(topology).runs()) {
			locksUnlocksAndExcludes(topology, report);
		}
	}

	private static void locksUnlocksAndExcludes(Topology topology, Report report) {
		for (LockImplementation implementation : topology.implementations()) {
			String name = topology.option() + " " + implementation.name();
			ScenarioResult contended = report.result("contended", implementation.name());
			assertThat(contended).as(name).isNotNull();
			assertThat(contended.number("acquisitions")).as(name).isPositive();
			assertThat(contended.number("overlaps")).as(name).isZero();
			assertThat(contended.number("finalCount")).as(name).isEqualTo(contended.number("acquisitions"));
			assertThat(contended.metrics()).as(name).containsEntry("mutualExclusion", true);
		}
	}

	@ParameterizedTest
	@EnumSource(value = Topology.class, names = { "CLUSTER", "QUORUM", "FAMILY" })
	void reportsTheTopologysTablesWithoutTheSingleRedisTargets(Topology topology) {
		String markdown = report(topology).runs().get(0).markdown();
		for (LockImplementation implementation : topology.implementations()) {
			assertThat(markdown).contains("| `" + implementation.name() + "` |");
		}
		assertThat(markdown).contains("### 3. Contended", "### Redis commands per operation")
			.doesNotContain("failed:", "### 1. Uncontended", "### 4. Hand-over", "### 5. Many ids", "### Targets");
		assertThat(report(topology).runs().get(0).json()).contains("\"mutualExclusion\": true", "\"targets\": []");
	}

	@ParameterizedTest
	@EnumSource(value = Topology.class, names = { "CLUSTER", "QUORUM", "FAMILY" })
	void summarisesTheRunsAsMediansWithTheirSpreads(Topology topology) {
		RepeatedReport report = report(topology);
		String markdown = report.markdown();
		assertThat(markdown).contains("### Medians over 2 runs", "#### 3. Contended", "Run 2 of 2")
			.doesNotContain("failed", "#### 1. Uncontended");
		for (LockImplementation implementation : topology.implementations()) {
			String name = implementation.name();
			// wait p50 ms, × floor, wait p99 ms, × floor, acq/s, × floor.
			assertThat(markdown).as(name)
				.containsPattern("\\| `" + name + "` \\|( " + BenchmarkSmokeTests.SPREAD + " \\|){6}\n");
			double first = report.runs().get(0).result("contended", name).number("acquisitionsPerSecond");
			double second = report.runs().get(1).result("contended", name).number("acquisitionsPerSecond");
			assertThat(report.spread("contended", name, "acquisitionsPerSecond")).as(name)
				.isEqualTo(new Spread((first + second) / 2, Math.min(first, second), Math.max(first, second), 2));
		}
		assertThat(report.json()).contains("\"repeat\": 2", "\"acquisitionsPerSecondToFloor\": {");
	}

	@Test
	void theImplementationsOfEachTopology() {
		assertThat(Topology.SINGLE.implementations()).extracting(LockImplementation::name)
			.containsExactly("floor", "floor-pubsub", "naive", "redisson", "si-spin", "si-pubsub", "distlock",
					"distlock-annotation", "distlock-fair");
		assertThat(Topology.CLUSTER.implementations()).extracting(LockImplementation::name)
			.containsExactly("floor", "redisson", "si-spin", "si-pubsub", "distlock", "distlock-min-replicas");
		assertThat(Topology.QUORUM.implementations()).extracting(LockImplementation::name)
			.containsExactly("floor", "distlock", "distlock-quorum", "redisson-multilock", "redisson-redlock");
	}

	@Test
	void updatesEachTopologysSectionAndLeavesTheOthersAlone(@TempDir Path directory) throws IOException {
		Path doc = directory.resolve("benchmarks.md");
		String single = Topology.SINGLE.docStart() + "\nsingle\n" + Topology.SINGLE.docEnd() + "\n";
		Files.writeString(doc,
				"# Title\n" + single + "## Cluster\n" + Topology.CLUSTER.docStart() + "\nold\n"
						+ Topology.CLUSTER.docEnd() + "\n## Quorum\n" + Topology.QUORUM.docStart() + "\nold\n"
						+ Topology.QUORUM.docEnd() + "\nafter\n");
		BenchmarkMain.updateDoc(doc, "cluster table\n", Topology.CLUSTER);
		BenchmarkMain.updateDoc(doc, "quorum table\n", Topology.QUORUM);
		assertThat(Files.readString(doc)).isEqualTo("# Title\n" + single + "## Cluster\n" + Topology.CLUSTER.docStart()
				+ "\n\ncluster table\n\n" + Topology.CLUSTER.docEnd() + "\n## Quorum\n" + Topology.QUORUM.docStart()
				+ "\n\nquorum table\n\n" + Topology.QUORUM.docEnd() + "\nafter\n");
	}

	@Test
	void aDocumentWithoutTheTopologysMarkersIsRejectedByName(@TempDir Path directory) throws IOException {
		Path doc = directory.resolve("benchmarks.md");
		Files.writeString(doc, Topology.SINGLE.docStart() + "\nsingle\n" + Topology.SINGLE.docEnd() + "\n");
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkMain.updateDoc(doc, "table\n", Topology.QUORUM))
			.withMessageContaining("no quorum results section")
			.withMessageContaining(Topology.QUORUM.docStart());
	}

	@Test
	void optionsNameTheTopologyAndCheckNamesAgainstIt() {
		BenchmarkMain.Options options = BenchmarkMain.Options
			.parse(new String[] { "--only=distlock-quorum", "--topology=quorum", "--scenarios=contended" });
		assertThat(options.topology()).isEqualTo(Topology.QUORUM);
		assertThat(options.implementations()).extracting(LockImplementation::name)
			.containsExactly("floor", "distlock-quorum");
		assertThat(options.scenarios()).extracting(Scenario::name).containsExactly("contended");
		assertThat(BenchmarkMain.Options.parse(new String[0]).topology()).isEqualTo(Topology.SINGLE);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkMain.Options.parse(new String[] { "--topology=sentinel" }))
			.withMessageContaining("'sentinel'")
			.withMessageContaining("[single, cluster, quorum, family, reactive]");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkMain.Options.parse(new String[] { "--topology=cluster", "--only=naive" }))
			.withMessageContaining("[naive] on topology cluster");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkMain.Options.parse(new String[] { "--topology=quorum", "--scenarios=many-ids" }))
			.withMessageContaining("[many-ids] on topology quorum");
	}

}
