package io.github.distlock.fault.nemesis;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import io.github.distlock.fault.nemesis.HistoryChecker.Verdict;

/**
 * What one nemesis run did and what the checker found, as a failure message and as a row
 * of the report's table.
 *
 * @param topology the topology's name
 * @param seed the nemesis's seed
 * @param nanos how long the clients worked under the nemesis
 * @param faults the faults injected
 * @param verdict the checker's findings
 * @param failedAcquires acquisitions that failed (timed out or Redis unreachable)
 * @param worstUnavailabilityMillis the longest time no client acquired a lock
 * @param faultHistory the faults, one line each, for failure messages
 */
record NemesisResult(String topology, long seed, long nanos, List<Fault> faults, Verdict verdict, long failedAcquires,
		long worstUnavailabilityMillis, String faultHistory) {

	static final String TABLE_HEADER = """
			| topology | seed | minutes | faults injected | operations | failed acquires | leases lapsed \
			| stale writes rejected | holds overtaken, excused | shared holds (overlaps excused) \
			| losses signalled (to the listener; unsignalled, excused) | violations | worst unavailability |
			|---|---|---|---|---|---|---|---|---|---|---|---|---|
			""";

	Map<String, Long> faultsPerKind() {
		return this.faults.stream().collect(Collectors.groupingBy(Fault::kind, TreeMap::new, Collectors.counting()));
	}

	String tableRow() {
		String kinds = faultsPerKind().entrySet()
			.stream()
			.map((kind) -> kind.getKey() + " " + kind.getValue())
			.collect(Collectors.joining(", "));
		return String.format(
				"| %s | %d | %.1f | %d: %s | %d | %d | %d | %d | %d (%d lost updates) | %d (%d) | %d (%d; %d) | %d "
						+ "| %.1f s |%n",
				this.topology, this.seed, this.nanos / 60e9, this.faults.size(), kinds, this.verdict.operations,
				this.failedAcquires, this.verdict.leasesLapsed, this.verdict.rejectedWrites,
				this.verdict.holdsOvertakenExcused, this.verdict.lostUpdatesExcused, this.verdict.sharedHolds,
				this.verdict.sharedOverlapsExcused, this.verdict.losses - this.verdict.lossesUnsignalledExcused,
				this.verdict.lossesToListener, this.verdict.lossesUnsignalledExcused, this.verdict.violations.size(),
				this.worstUnavailabilityMillis / 1000.0);
	}

	/** The seed to replay, the violations and the fault history. */
	String failureMessage() {
		List<String> shown = this.verdict.violations.subList(0, Math.min(20, this.verdict.violations.size()));
		return this.topology + ": " + this.verdict.violations.size()
				+ " violations (replay the faults with -Dnemesis.seed=" + this.seed + "):\n  "
				+ String.join("\n  ", shown) + "\nfaults (start, length, kind, target):\n" + this.faultHistory;
	}

}
