package io.github.distlock.fault.nemesis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

import io.github.distlock.testsupport.RedisClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25 §2, the nemesis suite: real {@code redis-server} topologies and three client
 * JVMs running a fenced read-modify-write counter under the lock, while a seeded nemesis
 * freezes, kills and restarts Redis nodes (with and without data), fails over, cuts a
 * client off from nodes, freezes clients and jumps their wall clocks; the
 * {@link HistoryChecker} then judges the history. A short run (30 s of faults per
 * topology) runs in every build; {@code -Dnemesis.duration=PT3M} makes a long one (beyond
 * about 4 minutes per topology raise {@code -Ddistlock.test.timeout} too),
 * {@code -Dnemesis.seed=<n>} replays a seed's faults, {@code -Dnemesis.report=<file>}
 * appends each run's row to a markdown table. See {@code docs/nemesis.md}.
 */
class NemesisTests {

	static final Duration SHORT_RUN = Duration.ofSeconds(30);

	@BeforeAll
	static void sayWhatIsSkipped() {
		if (!ClockJumps.available()) {
			System.out.println("NemesisTests: " + ClockJumps.unavailableMessage());
		}
	}

	/**
	 * The quorum promises exclusion while at most two of five nodes are faulty (frozen,
	 * restarted with their data or after a lease, cut off): only a node restarted empty
	 * at once and a client frozen past its lease may let two holders overlap, and then
	 * the fence must reject the stale writes.
	 */
	@Test
	void quorumOfFiveKeepsExclusionThroughMinorityFaults() {
		NemesisSettings settings = NemesisSettings.fromSystemProperties(SHORT_RUN);
		try (QuorumTopology topology = new QuorumTopology(settings.clients(), settings.lease(), settings.retention())) {
			check(new NemesisRun(settings).run(topology));
		}
	}

	/**
	 * A failover may lose the last acquisitions (Redis replicates asynchronously), so
	 * only there may two holders overlap, and the fence must reject every stale write.
	 */
	@Test
	void sentinelFailoversLetNoStaleWriteThrough() {
		NemesisSettings settings = NemesisSettings.fromSystemProperties(SHORT_RUN);
		try (SentinelTopology topology = new SentinelTopology()) {
			check(new NemesisRun(settings).run(topology));
		}
	}

	/**
	 * A coordinated failover keeps every lock; a master killed may lose the last
	 * acquisitions on its slots, and then the fence must reject every stale write.
	 */
	@Test
	void clusterFailoversLetNoStaleWriteThrough() {
		RedisClusterExtension.assumeClusterSupported();
		NemesisSettings settings = NemesisSettings.fromSystemProperties(SHORT_RUN);
		try (ClusterTopology topology = new ClusterTopology()) {
			check(new NemesisRun(settings).run(topology));
		}
	}

	/** Bounded by the build's default test timeout ({@code distlock.test.timeout}). */
	private static void check(NemesisResult result) {
		System.out.print(NemesisResult.TABLE_HEADER + result.tableRow());
		appendToReport(result);
		assertThat(result.verdict().violations).as(result::failureMessage).isEmpty();
		assertThat(result.verdict().operations).as("operations").isPositive();
		assertThat(result.faults()).as("faults injected").isNotEmpty();
	}

	private static void appendToReport(NemesisResult result) {
		String report = System.getProperty("nemesis.report");
		if (report == null) {
			return;
		}
		Path file = Path.of(report);
		try {
			if (!Files.exists(file)) {
				Files.writeString(file, NemesisResult.TABLE_HEADER, StandardCharsets.UTF_8);
			}
			Files.writeString(file, result.tableRow(), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write the nemesis report " + file, ex);
		}
	}

}
