package io.github.distlock.fault.nemesis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.github.distlock.fault.nemesis.HistoryChecker.Verdict;

/**
 * The shared holds of a nemesis run against the rest of its history, with the excuses of
 * {@link HistoryChecker#excused} (a lease the holder knew had lapsed, a fault the
 * topology does not promise to survive): a READ hold never overlaps an exclusive hold of
 * its id, and no instant has more permit holds of a semaphore id than its permits.
 * Overlapping READ holds are what a read lock is for, and are not counted.
 */
final class SharedHoldChecker {

	private SharedHoldChecker() {
	}

	static void check(List<SharedOp> shared, List<Op> ops, List<Fault> faults, long windowNanos, Verdict verdict) {
		verdict.sharedHolds += shared.size();
		Map<String, List<Op>> writers = new TreeMap<>();
		ops.forEach((op) -> writers.computeIfAbsent(op.lockId(), (id) -> new ArrayList<>()).add(op));
		Map<String, List<SharedOp>> permits = new TreeMap<>();
		for (SharedOp hold : shared) {
			if (hold.permits() == 0) {
				for (Op writer : writers.getOrDefault(hold.lockId(), List.of())) {
					if (hold.overlaps(writer)) {
						judge(hold, writer, faults, windowNanos, verdict, "READ and WRITE together on ");
					}
				}
			}
			else {
				permits.computeIfAbsent(hold.lockId(), (id) -> new ArrayList<>()).add(hold);
			}
		}
		permits.values().forEach((holds) -> checkPermits(holds, faults, windowNanos, verdict));
	}

	/**
	 * Sweeps the permit holds of one id in start order: each new hold and the earlier
	 * ones it overlaps, but those an excuse pairs with it, must be no more than the
	 * permits.
	 */
	private static void checkPermits(List<SharedOp> holds, List<Fault> faults, long windowNanos, Verdict verdict) {
		holds.sort(Comparator.comparingLong(SharedOp::acquiredNanos));
		List<SharedOp> active = new ArrayList<>();
		for (SharedOp hold : holds) {
			active.removeIf((earlier) -> !earlier.overlaps(hold));
			List<SharedOp> counted = new ArrayList<>();
			for (SharedOp earlier : active) {
				if (HistoryChecker.excused(earlier, hold, faults, windowNanos)) {
					verdict.sharedOverlapsExcused++;
				}
				else {
					counted.add(earlier);
				}
			}
			if (counted.size() >= hold.permits()) {
				verdict.violation("more than " + hold.permits() + " permits of " + hold.lockId() + " at once: "
						+ counted + " and " + hold);
			}
			active.add(hold);
		}
	}

	private static void judge(Hold first, Hold second, List<Fault> faults, long windowNanos, Verdict verdict,
			String what) {
		Hold earlier = (first.acquiredNanos() - second.acquiredNanos() <= 0) ? first : second;
		Hold later = (earlier == first) ? second : first;
		if (HistoryChecker.excused(earlier, later, faults, windowNanos)) {
			verdict.sharedOverlapsExcused++;
		}
		else {
			verdict.violation(what + first.lockId() + ": " + earlier + " and " + later);
		}
	}

}
