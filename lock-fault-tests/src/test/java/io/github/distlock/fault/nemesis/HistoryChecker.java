package io.github.distlock.fault.nemesis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import io.github.distlock.fault.nemesis.Fault.Excuse;

/**
 * Checks the history of a nemesis run: the operations every client recorded, the faults
 * the nemesis injected and the fenced registers' final state. Judged in real time on one
 * host's monotonic clock ({@link Op}). Properties:
 * <ol>
 * <li><b>Exclusion.</b> No two holds of one id overlap, unless the earlier one's lease
 * lapsed before its end (its holder could know it: {@code isHeld()} was false; the lock
 * promises exclusion to holders that keep their lease), or a fault the topology does not
 * promise to survive excuses the pair ({@link Fault.Excuse}); excused holds are counted,
 * not failed.</li>
 * <li><b>Tokens.</b> Every token is handed out once per id, and a hold that began after
 * another ended has the greater token, unless both are shared holds, which may coexist
 * (in every run: excused overlaps do not excuse this).</li>
 * <li><b>No stale write accepted.</b> A write sent after the fence acknowledged a write
 * with a greater token was rejected (always).</li>
 * <li><b>No lost update.</b> Each register's final value equals the writes the fence
 * accepted, which equal the accepted writes the clients saw, unless an excused overlap
 * touched that id; then the difference is counted as updates lost in a documented
 * window.</li>
 * <li><b>Every loss is signalled</b> to its holder: see {@link LossSignalChecker}.</li>
 * </ol>
 * Liveness (every client acquires after the heal, nothing is left held) is checked by
 * {@link NemesisRun} while the processes still run.
 */
final class HistoryChecker {

	private HistoryChecker() {
	}

	/**
	 * @param registers per id, the fence's final value and accepted-write count
	 */
	static Verdict check(List<Op> ops, List<Fault> faults, Map<String, long[]> registers, Windows windows) {
		return check(ops, List.of(), List.of(), faults, registers, windows);
	}

	/**
	 * {@link #check(List, List, Map, Windows)} with the shared holds of the run too,
	 * checked by {@link SharedHoldChecker}; the token rule covers every hold of an id,
	 * shared or not.
	 */
	static Verdict check(List<Op> ops, List<SharedOp> shared, List<Fault> faults, Map<String, long[]> registers,
			Windows windows) {
		return check(ops, shared, List.of(), faults, registers, windows);
	}

	/**
	 * {@link #check(List, List, List, Map, Windows)} with the calls of the clients'
	 * lock-lost listeners too, against which {@link LossSignalChecker} judges every hold.
	 */
	static Verdict check(List<Op> ops, List<SharedOp> shared, List<LossSignal> signals, List<Fault> faults,
			Map<String, long[]> registers, Windows windows) {
		long excuseWindowNanos = windows.excuseNanos();
		Verdict verdict = new Verdict();
		Map<String, List<Op>> byId = new TreeMap<>();
		ops.forEach((op) -> byId.computeIfAbsent(op.lockId(), (id) -> new ArrayList<>()).add(op));
		Map<String, List<Hold>> holdsById = new TreeMap<>();
		ops.forEach((op) -> holdsById.computeIfAbsent(op.lockId(), (id) -> new ArrayList<>()).add(op));
		shared.forEach((op) -> holdsById.computeIfAbsent(op.lockId(), (id) -> new ArrayList<>()).add(op));
		Set<String> idsWithExcusedOverlaps = new HashSet<>();
		for (List<Op> ofOneId : byId.values()) {
			ofOneId.sort(Comparator.comparingLong(Op::acquiredNanos));
			checkExclusion(ofOneId, faults, excuseWindowNanos, verdict, idsWithExcusedOverlaps);
			checkStaleWrites(ofOneId, verdict);
		}
		for (List<Hold> ofOneId : holdsById.values()) {
			ofOneId.sort(Comparator.comparingLong(Hold::acquiredNanos));
			checkTokens(ofOneId, verdict);
		}
		SharedHoldChecker.check(shared, ops, faults, excuseWindowNanos, verdict);
		holdsById.values().forEach((holds) -> LossSignalChecker.check(holds, signals, faults, windows, verdict));
		Map<String, Long> acknowledged = new HashMap<>();
		ops.stream().filter(Op::accepted).forEach((op) -> acknowledged.merge(op.lockId(), 1L, Long::sum));
		registers.forEach((id, register) -> {
			long value = register[0];
			long accepted = register[1];
			if (accepted != acknowledged.getOrDefault(id, 0L)) {
				verdict.violation("register " + id + ": the fence accepted " + accepted + " writes, clients saw "
						+ acknowledged.getOrDefault(id, 0L) + " accepted");
			}
			if (value != accepted) {
				if (idsWithExcusedOverlaps.contains(id)) {
					verdict.lostUpdatesExcused += accepted - value;
				}
				else {
					verdict.violation("register " + id + ": " + (accepted - value) + " lost updates (value " + value
							+ ", accepted writes " + accepted + ")");
				}
			}
		});
		verdict.operations = ops.size();
		verdict.rejectedWrites = ops.stream().filter((op) -> !op.accepted()).count();
		verdict.leasesLapsed = ops.stream().filter((op) -> !op.heldAtEnd()).count();
		return verdict;
	}

	private static void checkExclusion(List<Op> ofOneId, List<Fault> faults, long windowNanos, Verdict verdict,
			Set<String> idsWithExcusedOverlaps) {
		List<Op> active = new ArrayList<>();
		Set<Op> overtaken = new HashSet<>();
		for (Op op : ofOneId) {
			active.removeIf((earlier) -> !earlier.overlaps(op));
			for (Op earlier : active) {
				if (excused(earlier, op, faults, windowNanos)) {
					overtaken.add(earlier);
					idsWithExcusedOverlaps.add(op.lockId());
				}
				else {
					verdict.violation("overlap on " + op.lockId() + ": " + earlier + " and " + op);
				}
			}
			active.add(op);
		}
		verdict.holdsOvertakenExcused += overtaken.size();
	}

	static boolean excused(Hold first, Hold second, List<Fault> faults, long windowNanos) {
		return !first.heldAtEnd() || locksLost(first, second, faults, windowNanos) || frozen(first, faults).isPresent()
				|| frozen(second, faults).isPresent();
	}

	/**
	 * Whether a fault that loses locks explains why {@code second} overlaps
	 * {@code first}: both reach into its window, extended by {@code windowNanos}.
	 */
	static boolean locksLost(Hold first, Hold second, List<Fault> faults, long windowNanos) {
		for (Fault fault : faults) {
			if (fault.excuse() == Excuse.LOCKS_LOST) {
				long from = fault.startNanos();
				long to = fault.endNanos() + windowNanos;
				if (reaches(first, from, to) && reaches(second, from, to)) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * The first freeze past its lease of the client of {@code hold} during it, if any.
	 */
	static Optional<Fault> frozen(Hold hold, List<Fault> faults) {
		return faults.stream()
			.filter((fault) -> fault.excuse() == Excuse.CLIENT_STOPPED && hold.client().startsWith(fault.target() + "-")
					&& reaches(hold, fault.startNanos(), fault.endNanos()))
			.findFirst();
	}

	private static boolean reaches(Hold op, long from, long to) {
		return op.acquiredNanos() - to <= 0 && from - op.releasedNanos() <= 0;
	}

	/**
	 * Sweeps the holds in start order, keeping the greatest token of every hold that
	 * ended before the current one began.
	 */
	static void checkTokens(List<? extends Hold> byStart, Verdict verdict) {
		Map<Long, Hold> byToken = new LinkedHashMap<>();
		for (Hold op : byStart) {
			Hold before = byToken.put(op.token(), op);
			if (before != null) {
				verdict.violation(
						"token " + op.token() + " of " + op.lockId() + " handed out twice: " + before + " and " + op);
			}
		}
		List<Hold> byEnd = new ArrayList<>(byStart);
		byEnd.sort(Comparator.comparingLong(Hold::releasedNanos));
		int ended = 0;
		Hold greatestEnded = null;
		Hold greatestExclusiveEnded = null;
		for (Hold op : byStart) {
			while (ended < byEnd.size() && byEnd.get(ended).endedBefore(op)) {
				Hold candidate = byEnd.get(ended++);
				if (greatestEnded == null || candidate.token() > greatestEnded.token()) {
					greatestEnded = candidate;
				}
				if (candidate.exclusive()
						&& (greatestExclusiveEnded == null || candidate.token() > greatestExclusiveEnded.token())) {
					greatestExclusiveEnded = candidate;
				}
			}
			// Two shared holds may coexist: only a pair with an exclusive hold is
			// ordered.
			Hold before = op.exclusive() ? greatestEnded : greatestExclusiveEnded;
			if (before != null && op.token() <= before.token()) {
				verdict
					.violation("token went back on " + op.lockId() + ": " + before + " ended before " + op + " began");
			}
		}
	}

	/**
	 * Sweeps the writes in send order, keeping the greatest token of every accepted write
	 * acknowledged before the current one was sent.
	 */
	private static void checkStaleWrites(List<Op> ops, Verdict verdict) {
		List<Op> bySent = new ArrayList<>(ops);
		bySent.sort(Comparator.comparingLong(Op::writeSentNanos));
		List<Op> byAck = new ArrayList<>(ops);
		byAck.removeIf((op) -> !op.accepted());
		byAck.sort(Comparator.comparingLong(Op::writeAckNanos));
		int acked = 0;
		long greatest = 0;
		for (Op op : bySent) {
			while (acked < byAck.size() && byAck.get(acked).writeAckNanos() - op.writeSentNanos() < 0) {
				greatest = Math.max(greatest, byAck.get(acked++).token());
			}
			if (op.accepted() && op.token() < greatest) {
				verdict.violation("stale write accepted on " + op.lockId() + ": " + op + " after token " + greatest);
			}
		}
	}

	/**
	 * The checker's time windows.
	 *
	 * @param excuseNanos how long after a fault that loses locks holds may still overlap
	 * because of it (a lease and a renewal, with slack)
	 * @param signalSlackNanos how long after the engine had to know of a loss its
	 * lock-lost listener may still be called: the listener's own thread, and a loaded
	 * machine
	 */
	record Windows(long excuseNanos, long signalSlackNanos) {

	}

	/** What the checker found. */
	static final class Verdict {

		final List<String> violations = new ArrayList<>();

		long operations;

		long rejectedWrites;

		/** Holds whose holder no longer believed it held the lock at their end. */
		long leasesLapsed;

		/**
		 * Holds that a later hold overlapped where that is excused: the stale holders.
		 */
		long holdsOvertakenExcused;

		long lostUpdatesExcused;

		/** Shared holds (READ, permits) checked. */
		long sharedHolds;

		/** Shared holds that overlapped a writer, or too many permits, where excused. */
		long sharedOverlapsExcused;

		/**
		 * Holds the history shows lost while held: overtaken while their holder believed
		 * it held, seen gone by their holder, or found gone by their release.
		 */
		long losses;

		/** Of {@link #losses}, those the lock-lost listener was told of. */
		long lossesToListener;

		/**
		 * Of {@link #losses}, those released in a fault's window before their holder
		 * could be told (the release may have had no answer).
		 */
		long lossesUnsignalledExcused;

		void violation(String violation) {
			this.violations.add(violation);
		}

	}

}
