package io.github.distlock.fault.nemesis;

import java.util.List;
import java.util.Map;

import io.github.distlock.fault.nemesis.Fault.Excuse;
import io.github.distlock.fault.nemesis.HistoryChecker.Verdict;
import io.github.distlock.fault.nemesis.HistoryChecker.Windows;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link HistoryChecker} on small hand-made histories: it passes a correct one and
 * finds each kind of violation, and excuses overlaps only where a fault excuses them.
 */
class HistoryCheckerTests {

	/** The excuse window of a fault that loses locks, and the slack of a loss signal. */
	private static final Windows WINDOWS = new Windows(1_000, 500);

	/** Lease of every hold, in ms: far beyond the histories' nanoseconds. */
	private static final long LEASE = 3_000;

	/** The nemesis's windows, for histories in seconds: a lease and 2 s, and 1.5 s. */
	private static final Windows RUN = new Windows(5_000_000_000L, 1_500_000_000L);

	/** {@code sawLoss} of {@link #hold} for a holder that never saw its lock gone. */
	private static final double NOT_SEEN = -1;

	@Test
	void passesHoldsOneAfterAnotherWithGrowingTokens() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 200, true), op("c1-t0", 11, 300, 400, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(), Map.of("r", new long[] { 2, 2 }), WINDOWS);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.operations).isEqualTo(2);
	}

	@Test
	void findsAnOverlapNoFaultExcuses() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 300, true), op("c1-t0", 11, 200, 400, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(pause("c2", 150, 250, Excuse.CLIENT_STOPPED)),
				Map.of("r", new long[] { 2, 2 }), WINDOWS);
		assertThat(verdict.violations).singleElement().asString().startsWith("overlap on r");
	}

	@Test
	void excusesAnOverlapOfTheClientFrozenDuringItsHold() {
		List<Op> ops = List.of(frozen("c0-t0", 10, 100, 5_000, false), op("c1-t0", 11, 200, 400, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(pause("c0", 150, 4_000, Excuse.CLIENT_STOPPED)),
				Map.of("r", new long[] { 1, 1 }), WINDOWS);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.holdsOvertakenExcused).isEqualTo(1);
		assertThat(verdict.rejectedWrites).isEqualTo(1);
	}

	@Test
	void excusesLostUpdatesOnlyWhereLocksMayBeLost() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 300, true), op("c1-t0", 11, 200, 400, true));
		Map<String, long[]> oneUpdateLost = Map.of("r", new long[] { 1, 2 });
		Verdict excused = HistoryChecker.check(ops, List.of(pause("node", 50, 60, Excuse.LOCKS_LOST)), oneUpdateLost,
				WINDOWS);
		assertThat(excused.violations).isEmpty();
		assertThat(excused.lostUpdatesExcused).isEqualTo(1);
		Verdict tooLate = HistoryChecker.check(ops, List.of(pause("node", 10, 20, Excuse.LOCKS_LOST)), oneUpdateLost,
				new Windows(50, 500));
		assertThat(tooLate.violations).anyMatch((violation) -> violation.contains("1 lost updates"))
			.anyMatch((violation) -> violation.startsWith("overlap"));
	}

	/**
	 * CI, seed 2084095628344: c1's JVM was frozen right after its token (10) was issued,
	 * on its first read, while two holds of c0 with greater tokens came and went. With
	 * the hold's start taken after that read, the history showed c1's hold beginning
	 * after theirs ended with a smaller token ("token went back") and overtaking c0's
	 * second hold; taken when the acquire returned, before the read, as the clients now
	 * do, it is the frozen holder overtaken, as it was.
	 */
	@Test
	void aHoldBeginsWhenItsAcquireReturnsNotAfterItsTokenIsRead() {
		List<Fault> frozenAfterTheRead = List.of(pause("c1", 101, 4_900, Excuse.CLIENT_STOPPED));
		Op first = op("c0-t0", 20, 2_000, 2_500, true);
		Op second = op("c0-t1", 21, 2_600, 5_100, true);
		Map<String, long[]> registers = Map.of("r", new long[] { 2, 2 });
		Op startedAfterTheRead = new Op("c1-t0", "r", 10, 4_950, 4_960, 4_970, 5_050, false, false, "lost", LEASE,
				Hold.NEVER, 0);
		assertThat(HistoryChecker.check(List.of(first, second, startedAfterTheRead), frozenAfterTheRead, registers,
				WINDOWS).violations)
			.anyMatch((violation) -> violation.startsWith("token went back"));
		Op startedAtTheReturn = new Op("c1-t0", "r", 10, 90, 4_960, 4_970, 5_050, false, false, "lost", LEASE,
				Hold.NEVER, 0);
		Verdict verdict = HistoryChecker.check(List.of(startedAtTheReturn, first, second), frozenAfterTheRead,
				registers, WINDOWS);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.holdsOvertakenExcused).isEqualTo(1);
	}

	@Test
	void findsATokenThatWentBackOrWasHandedOutTwice() {
		List<Op> back = List.of(op("c0-t0", 11, 100, 200, true), op("c1-t0", 10, 300, 400, false));
		assertThat(HistoryChecker.check(back, List.of(), Map.of("r", new long[] { 1, 1 }), WINDOWS).violations)
			.anyMatch((violation) -> violation.startsWith("token went back"));
		List<Op> twice = List.of(op("c0-t0", 10, 100, 200, true), op("c1-t0", 10, 300, 400, false));
		assertThat(HistoryChecker.check(twice, List.of(), Map.of("r", new long[] { 1, 1 }), WINDOWS).violations)
			.anyMatch((violation) -> violation.contains("handed out twice"));
	}

	@Test
	void findsAStaleWriteTheFenceAccepted() {
		// Excused overlap (client frozen), but the fence must still have rejected c0.
		List<Op> ops = List.of(frozen("c0-t0", 10, 100, 5_000, true), op("c1-t0", 11, 200, 400, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(pause("c0", 150, 4_000, Excuse.CLIENT_STOPPED)),
				Map.of("r", new long[] { 2, 2 }), WINDOWS);
		assertThat(verdict.violations).singleElement().asString().startsWith("stale write accepted");
	}

	@Test
	void findsWritesTheClientsDidNotSee() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 200, true));
		assertThat(HistoryChecker.check(ops, List.of(), Map.of("r", new long[] { 2, 2 }), WINDOWS).violations)
			.singleElement()
			.asString()
			.contains("clients saw 1 accepted");
	}

	@Test
	void excusesAnOverlapWithAHoldWhoseLeaseLapsedButNotTheOtherWayRound() {
		Op lapsed = new Op("c0-t0", "r", 10, 100, 150, 160, 300, false, false, "lost", LEASE, Hold.NEVER, 0);
		Op next = op("c1-t0", 11, 200, 400, true);
		Map<String, long[]> registers = Map.of("r", new long[] { 1, 1 });
		Verdict verdict = HistoryChecker.check(List.of(lapsed, next), List.of(), registers, WINDOWS);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.leasesLapsed).isEqualTo(1);
		Op kept = op("c0-t0", 10, 100, 300, false);
		Op lapsedLater = new Op("c1-t0", "r", 11, 200, 250, 260, 400, true, false, "lost", LEASE, Hold.NEVER, 0);
		assertThat(HistoryChecker.check(List.of(kept, lapsedLater), List.of(), registers, WINDOWS).violations)
			.singleElement()
			.asString()
			.startsWith("overlap on r");
	}

	@Test
	void readHoldsMayOverlapEachOtherButNotAWriter() {
		List<Op> writes = List.of(op("c0-t0", 10, 100, 200, true), op("c0-t0", 14, 600, 700, true));
		List<SharedOp> reads = List.of(read("c1-t0", 11, 300, 500), read("c2-t0", 12, 350, 450));
		Verdict verdict = HistoryChecker.check(writes, reads, List.of(), Map.of("r", new long[] { 2, 2 }), WINDOWS);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.sharedHolds).isEqualTo(2);
		List<SharedOp> overlapping = List.of(read("c1-t0", 11, 150, 250));
		assertThat(HistoryChecker.check(writes, overlapping, List.of(), Map.of("r", new long[] { 2, 2 }),
				WINDOWS).violations)
			.singleElement()
			.asString()
			.startsWith("READ and WRITE together on r");
	}

	@Test
	void aReadHoldOverlappingAWriterIsExcusedOnlyByAFault() {
		List<Op> writes = List.of(op("c0-t0", 12, 200, 300, true));
		// The frozen reader's close() threw LockLostException, as rule 7 demands.
		List<SharedOp> reads = List.of(new SharedOp("c1-t0", "r", 0, 11, 100, 250, true, "lost", LEASE));
		Verdict excused = HistoryChecker.check(writes, reads, List.of(pause("c1", 120, 400, Excuse.CLIENT_STOPPED)),
				Map.of("r", new long[] { 1, 1 }), WINDOWS);
		assertThat(excused.violations).isEmpty();
		assertThat(excused.sharedOverlapsExcused).isEqualTo(1);
	}

	@Test
	void findsMorePermitHoldsAtOnceThanPermits() {
		List<SharedOp> two = List.of(permit("c0-t0", 1, 100, 400), permit("c1-t0", 2, 200, 500));
		assertThat(HistoryChecker.check(List.of(), two, List.of(), Map.of(), WINDOWS).violations).isEmpty();
		List<SharedOp> three = List.of(permit("c0-t0", 1, 100, 400), permit("c1-t0", 2, 200, 500),
				permit("c2-t0", 3, 300, 600));
		assertThat(HistoryChecker.check(List.of(), three, List.of(), Map.of(), WINDOWS).violations).singleElement()
			.asString()
			.startsWith("more than 2 permits of s at once");
	}

	@Test
	void aTokenOfAnyHoldNeverGoesBack() {
		List<Op> writes = List.of(op("c0-t0", 10, 300, 400, true));
		List<SharedOp> reads = List.of(read("c1-t0", 11, 100, 200));
		assertThat(HistoryChecker.check(writes, reads, List.of(), Map.of("r", new long[] { 1, 1 }), WINDOWS).violations)
			.singleElement()
			.asString()
			.startsWith("token went back on r");
	}

	@Test
	void sharedHoldsToldOfOutOfTokenOrderAreNoViolationButAWriterAfterThemIs() {
		// The second reader's acquire was applied first; its reply came after the first
		// reader had released.
		List<SharedOp> reads = List.of(read("c1-t0", 12, 100, 200), read("c2-t0", 11, 210, 300));
		assertThat(HistoryChecker.check(List.of(), reads, List.of(), Map.of(), WINDOWS).violations).isEmpty();
		List<Op> staleWriter = List.of(op("c0-t0", 11, 400, 500, true));
		List<SharedOp> oneRead = List.of(read("c1-t0", 12, 100, 200));
		assertThat(HistoryChecker.check(staleWriter, oneRead, List.of(), Map.of("r", new long[] { 1, 1 }),
				WINDOWS).violations)
			.singleElement()
			.asString()
			.startsWith("token went back on r");
	}

	@Test
	void aHoldReleasedBeforeTheNextBeganIsNoLoss() {
		List<Op> ops = List.of(hold("c0-t0", 10, 1, 2, true, "ok", NOT_SEEN, true),
				hold("c1-t0", 11, 3, 4, true, "ok", NOT_SEEN, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(), List.of(), List.of(), Map.of("r", new long[] { 2, 2 }),
				RUN);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.losses).isZero();
	}

	/**
	 * The defect of issue 39: a lock left unrenewed after an extend lapses while held,
	 * the next holder takes it, and only the holder's own isHeld() and close() ever say
	 * so.
	 */
	@Test
	void findsALapsedLeaseNeverToldToTheListener() {
		List<Op> ops = List.of(hold("c0-t2", 10, 0, 12, false, "lost", 6.1, false),
				hold("c1-t2", 11, 6.5, 7, true, "ok", NOT_SEEN, true));
		Map<String, long[]> registers = Map.of("r", new long[] { 1, 1 });
		assertThat(HistoryChecker.check(ops, List.of(), List.of(), List.of(), registers, RUN).violations)
			.singleElement()
			.asString()
			.startsWith("loss not told to the lock-lost listener within 1500 ms")
			.contains("its holder saw it gone");
		// Another client's signal, or another hold's, is not this hold's.
		List<LossSignal> others = List.of(new LossSignal("c1", "r", 10, seconds(6)),
				new LossSignal("c0", "r", 9, seconds(6)));
		assertThat(HistoryChecker.check(ops, List.of(), others, List.of(), registers, RUN).violations).hasSize(1);
		List<LossSignal> late = List.of(new LossSignal("c0", "r", 10, seconds(7.7)));
		assertThat(HistoryChecker.check(ops, List.of(), late, List.of(), registers, RUN).violations).singleElement()
			.asString()
			.contains("told 1600 ms after");
	}

	@Test
	void passesALapsedLeaseToldToTheListenerWithinTheSlack() {
		List<Op> ops = List.of(hold("c0-t2", 10, 0, 12, false, "lost", 6.1, false),
				hold("c1-t2", 11, 6.5, 7, true, "ok", NOT_SEEN, true));
		List<LossSignal> told = List.of(new LossSignal("c0", "r", 10, seconds(7.5)));
		Verdict verdict = HistoryChecker.check(ops, List.of(), told, List.of(), Map.of("r", new long[] { 1, 1 }), RUN);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.losses).isOne();
		assertThat(verdict.lossesToListener).isOne();
	}

	@Test
	void findsAnOvertakenHoldNotSignalledByItsRelease() {
		// A failover lost c0's key; c0 went on past a lease after c1 took it, and was
		// never told.
		List<Fault> failover = List
			.of(new Fault("kill-master", "node 1", seconds(1.5), seconds(1.8), Excuse.LOCKS_LOST));
		List<Op> ops = List.of(hold("c0-t0", 10, 1, 6, true, "ok", NOT_SEEN, false),
				hold("c1-t0", 11, 2, 2.1, true, "ok", NOT_SEEN, true));
		Map<String, long[]> registers = Map.of("r", new long[] { 1, 1 });
		Verdict verdict = HistoryChecker.check(ops, List.of(), List.of(), failover, registers, RUN);
		assertThat(verdict.violations).singleElement()
			.asString()
			.startsWith("loss not signalled by the release")
			.contains("c1-t0 token 11");
		assertThat(verdict.holdsOvertakenExcused).isOne();
		for (Op signalled : List.of(hold("c0-t0", 10, 1, 6, true, "lost", NOT_SEEN, false),
				hold("c0-t0", 10, 1, 6, false, "ok", NOT_SEEN, false))) {
			assertThat(HistoryChecker.check(List.of(signalled, ops.get(1)), List.of(), List.of(), failover, registers,
					RUN).violations)
				.isEmpty();
		}
	}

	@Test
	void excusesAnUnsignalledLossInAFailoverReleasedBeforeALeasePassed() {
		List<Fault> failover = List
			.of(new Fault("kill-master", "node 1", seconds(1.5), seconds(1.8), Excuse.LOCKS_LOST));
		List<Op> ops = List.of(hold("c0-t0", 10, 1, 2.5, true, "ok", NOT_SEEN, false),
				hold("c1-t0", 11, 2, 2.1, true, "ok", NOT_SEEN, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(), List.of(), failover, Map.of("r", new long[] { 1, 1 }),
				RUN);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.lossesUnsignalledExcused).isOne();
	}

	@Test
	void aHolderThatKeptGoingAfterAFailoverMustHearOfItWithinALease() {
		List<Fault> failover = List
			.of(new Fault("kill-master", "node 1", seconds(1.5), seconds(1.8), Excuse.LOCKS_LOST));
		List<Op> ops = List.of(hold("c0-t0", 10, 1, 8, false, "lost", NOT_SEEN, false),
				hold("c1-t0", 11, 2, 2.1, true, "ok", NOT_SEEN, true));
		Map<String, long[]> registers = Map.of("r", new long[] { 1, 1 });
		assertThat(HistoryChecker.check(ops, List.of(), List.of(), failover, registers, RUN).violations).singleElement()
			.asString()
			.startsWith("loss not told to the lock-lost listener")
			.contains("a lease after it was overtaken in a fault's window");
		List<LossSignal> atRenewal = List.of(new LossSignal("c0", "r", 10, seconds(3)));
		assertThat(HistoryChecker.check(ops, List.of(), atRenewal, failover, registers, RUN).violations).isEmpty();
	}

	@Test
	void aHolderFrozenPastItsLeaseNeedsLockLostExceptionAtClose() {
		List<Fault> freeze = List
			.of(new Fault("pause-holder-past-lease", "c0", seconds(1), seconds(5), Excuse.CLIENT_STOPPED));
		Op next = hold("c1-t0", 11, 4.5, 4.6, true, "ok", NOT_SEEN, true);
		Map<String, long[]> registers = Map.of("r", new long[] { 1, 1 });
		Op closeThrew = hold("c0-t0", 10, 0.5, 5.5, false, "lost", 5.1, false);
		assertThat(HistoryChecker.check(List.of(closeThrew, next), List.of(), List.of(), freeze, registers,
				RUN).violations)
			.isEmpty();
		Op closeReturned = hold("c0-t0", 10, 0.5, 5.5, false, "ok", 5.1, false);
		assertThat(HistoryChecker.check(List.of(closeReturned, next), List.of(), List.of(), freeze, registers,
				RUN).violations)
			.singleElement()
			.asString()
			.startsWith("loss not signalled at close() to a holder frozen past its lease");
	}

	private static SharedOp read(String client, long token, long acquired, long released) {
		return new SharedOp(client, "r", 0, token, acquired, released, true, "ok", LEASE);
	}

	private static SharedOp permit(String client, long token, long acquired, long released) {
		return new SharedOp(client, "s", 2, token, acquired, released, true, "ok", LEASE);
	}

	/**
	 * A hold of {@code r} whose client was frozen past its lease: its {@code close()}
	 * threw {@code LockLostException}, as rule 7 demands ({@code isHeld()} is left true,
	 * so that only the freeze excuses an overlap).
	 */
	private static Op frozen(String client, long token, long acquired, long released, boolean accepted) {
		long middle = (acquired + released) / 2;
		return new Op(client, "r", token, acquired, middle, released - 1, released, accepted, true, "lost", LEASE,
				Hold.NEVER, 0);
	}

	/**
	 * A hold of {@code r} whose write is sent halfway, acknowledged just before the end.
	 */
	private static Op op(String client, long token, long acquired, long released, boolean accepted) {
		long middle = (acquired + released) / 2;
		return new Op(client, "r", token, acquired, middle, released - 1, released, accepted, true, "ok", LEASE,
				Hold.NEVER, 0);
	}

	/**
	 * A hold of {@code r} from {@code from} to {@code to} seconds on a 3 s lease, its
	 * write sent halfway and acknowledged just before the end; its holder saw it gone at
	 * {@code sawLoss} seconds, or never ({@link #NOT_SEEN}).
	 */
	private static Op hold(String client, long token, double from, double to, boolean heldAtEnd, String release,
			double sawLoss, boolean accepted) {
		long released = seconds(to);
		return new Op(client, "r", token, seconds(from), seconds((from + to) / 2), released - 1, released, accepted,
				heldAtEnd, release, LEASE, (sawLoss == NOT_SEEN) ? Hold.NEVER : seconds(sawLoss), 0);
	}

	private static long seconds(double seconds) {
		return (long) (seconds * 1e9);
	}

	private static Fault pause(String target, long start, long end, Excuse excuse) {
		return new Fault("test", target, start, end, excuse);
	}

}
