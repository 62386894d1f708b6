package io.github.distlock.fault.nemesis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.github.distlock.fault.nemesis.HistoryChecker.Verdict;
import io.github.distlock.fault.nemesis.HistoryChecker.Windows;

/**
 * Rule 7 of the {@link HistoryChecker}: every loss is signalled to its holder.
 * <p>
 * A holder is <em>told</em> of a loss by its client's lock-lost listener (a
 * {@link LossSignal} with the hold's id and token), by {@code isHeld()} or
 * {@code extend()} answering that the lock is gone ({@link Hold#sawLossNanos()}, and
 * {@code isHeld()} just before the release), or by {@code close()} throwing
 * {@code LockLostException}. It <em>believes it holds</em> from its acquisition until its
 * release or until the listener or its own {@code isHeld()} or {@code extend()} told it,
 * whichever comes first. A hold is <em>lost</em> when the history shows its key gone
 * while it held: another hold of its id that excludes it began while it believed it held
 * (overtaken, at that start), it saw the lock gone itself, or its release found it gone.
 * An overlap that rule 1 (or 5) does not excuse is an exclusion violation, reported there
 * and not here.
 * <p>
 * Demanded of every lost hold, by which time the engine had to know:
 * <ul>
 * <li><b>A holder frozen past its lease</b> (a {@code CLIENT_STOPPED} fault of its client
 * during the hold, the loss within it or the slack after): {@code close()} threw
 * {@code LockLostException}. Nothing can reach a frozen JVM in time, and on resume the
 * holder's own release may come before the renewal that would call the listener.</li>
 * <li><b>The listener, unasked</b>, no later than the slack after the engine had to know,
 * if the hold lasted that long: when it was overtaken, if no fault that loses locks
 * explains it (the key expired, so the lease had ended); its lease after it was
 * overtaken, if one does (the next renewal finds the key gone, or fails until the lease
 * ends); when its holder saw the lock gone (the local lease had ended, or the engine had
 * marked it lost). {@code isHeld()} answers only when asked: a holder that never asks
 * must still learn.</li>
 * <li><b>Something by its release</b>, if overtaken: the listener, {@code isHeld()} false
 * or {@code close()} throwing. Excused (and counted) only in the window of a fault that
 * loses locks, for a hold released before its lease after the overtaking: a release whose
 * reply does not come returns normally (the key then expires with its lease), so the
 * engine could not tell.</li>
 * </ul>
 * Permit holds are not judged: which of more than their permits lost is not defined.
 */
final class LossSignalChecker {

	private LossSignalChecker() {
	}

	/** Judges the holds of one lock id. */
	static void check(List<Hold> ofOneId, List<LossSignal> signals, List<Fault> faults, Windows windows,
			Verdict verdict) {
		List<Hold> byStart = new ArrayList<>(ofOneId);
		byStart.removeIf(LossSignalChecker::isPermit);
		byStart.sort(Comparator.comparingLong(Hold::acquiredNanos));
		for (int i = 0; i < byStart.size(); i++) {
			judge(byStart.get(i), byStart.subList(i + 1, byStart.size()), signals, faults, windows, verdict);
		}
	}

	private static void judge(Hold hold, List<Hold> later, List<LossSignal> signals, List<Fault> faults,
			Windows windows, Verdict verdict) {
		long listener = signals.stream()
			.filter((signal) -> signal.tellsOf(hold))
			.mapToLong(LossSignal::nanos)
			.reduce(Hold.NEVER, LossSignalChecker::earliest);
		long believedUntil = earliest(hold.releasedNanos(), earliest(listener, hold.sawLossNanos()));
		Hold overtaker = overtaker(hold, later, believedUntil, faults, windows.excuseNanos());
		boolean lostAtRelease = "lost".equals(hold.release());
		if (overtaker == null && hold.sawLossNanos() == Hold.NEVER && !lostAtRelease && listener == Hold.NEVER) {
			return;
		}
		verdict.losses++;
		if (listener != Hold.NEVER) {
			verdict.lossesToListener++;
		}
		boolean locksLost = overtaker != null
				&& HistoryChecker.locksLost(hold, overtaker, faults, windows.excuseNanos());
		long leaseNanos = TimeUnit.MILLISECONDS.toNanos(hold.leaseMillis());
		long known = Hold.NEVER;
		String why = null;
		if (overtaker != null) {
			known = locksLost ? overtaker.acquiredNanos() + leaseNanos : overtaker.acquiredNanos();
			why = locksLost ? "a lease after it was overtaken in a fault's window by " + overtaker
					: "it was overtaken (its lease had ended) by " + overtaker;
		}
		if (hold.sawLossNanos() != Hold.NEVER && hold.sawLossNanos() == earliest(known, hold.sawLossNanos())) {
			known = hold.sawLossNanos();
			why = "its holder saw it gone";
		}
		Optional<Fault> freeze = (known != Hold.NEVER) ? frozenAt(hold, known, faults, windows) : Optional.empty();
		if (freeze.isPresent()) {
			if (!lostAtRelease) {
				verdict
					.violation("loss not signalled at close() to a holder frozen past its lease (" + freeze.get().kind()
							+ " of " + freeze.get().target() + "), " + why + ": " + hold + " on " + hold.lockId());
			}
			return;
		}
		long deadline = known + windows.signalSlackNanos();
		if (known != Hold.NEVER && hold.releasedNanos() - deadline >= 0
				&& (listener == Hold.NEVER || listener - deadline > 0)) {
			verdict.violation("loss not told to the lock-lost listener within "
					+ TimeUnit.NANOSECONDS.toMillis(windows.signalSlackNanos()) + " ms of when the engine had to know ("
					+ why + ((listener != Hold.NEVER) ? "; told " + (listener - known) / 1_000_000 + " ms after" : "")
					+ "): " + hold + " on " + hold.lockId());
			return;
		}
		if (overtaker == null || believedUntil - hold.releasedNanos() < 0 || !hold.heldAtEnd() || lostAtRelease) {
			return;
		}
		if (locksLost && hold.releasedNanos() - (overtaker.acquiredNanos() + leaseNanos) < 0) {
			verdict.lossesUnsignalledExcused++;
			return;
		}
		verdict.violation("loss not signalled by the release (no listener call, isHeld() true before it, close() "
				+ "returned): " + hold + " overtaken on " + hold.lockId() + " by " + overtaker);
	}

	/**
	 * The first later hold of the id that excludes {@code hold} and began while its
	 * holder believed it held, where an excuse of rule 1 (or 5) allows the overlap.
	 */
	private static Hold overtaker(Hold hold, List<Hold> later, long believedUntil, List<Fault> faults,
			long excuseNanos) {
		for (Hold next : later) {
			if (next.acquiredNanos() - believedUntil >= 0) {
				return null;
			}
			if ((hold.exclusive() || next.exclusive()) && HistoryChecker.excused(hold, next, faults, excuseNanos)) {
				return next;
			}
		}
		return null;
	}

	/**
	 * The freeze past its lease of the client of {@code hold} that explains a loss known
	 * at {@code known}: during the hold, and the loss during it or within the slack
	 * after.
	 */
	private static Optional<Fault> frozenAt(Hold hold, long known, List<Fault> faults, Windows windows) {
		return HistoryChecker.frozen(hold, faults)
			.filter((fault) -> known - fault.startNanos() >= 0
					&& known - (fault.endNanos() + windows.signalSlackNanos()) <= 0);
	}

	private static boolean isPermit(Hold hold) {
		return hold instanceof SharedOp shared && shared.permits() > 0;
	}

	/** The earlier of two times, {@link Hold#NEVER} for none. */
	static long earliest(long a, long b) {
		if (a == Hold.NEVER) {
			return b;
		}
		if (b == Hold.NEVER) {
			return a;
		}
		return (a - b <= 0) ? a : b;
	}

}
