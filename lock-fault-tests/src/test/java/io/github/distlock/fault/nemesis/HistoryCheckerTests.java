package io.github.distlock.fault.nemesis;

import java.util.List;
import java.util.Map;

import io.github.distlock.fault.nemesis.Fault.Excuse;
import io.github.distlock.fault.nemesis.HistoryChecker.Verdict;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link HistoryChecker} on small hand-made histories: it passes a correct one and
 * finds each kind of violation, and excuses overlaps only where a fault excuses them.
 */
class HistoryCheckerTests {

	private static final long WINDOW = 1_000;

	/** Lease of every hold, in ms. */
	private static final long LEASE = 3_000;

	@Test
	void passesHoldsOneAfterAnotherWithGrowingTokens() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 200, true), op("c1-t0", 11, 300, 400, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(), Map.of("r", new long[] { 2, 2 }), WINDOW);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.operations).isEqualTo(2);
	}

	@Test
	void findsAnOverlapNoFaultExcuses() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 300, true), op("c1-t0", 11, 200, 400, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(pause("c2", 150, 250, Excuse.CLIENT_STOPPED)),
				Map.of("r", new long[] { 2, 2 }), WINDOW);
		assertThat(verdict.violations).singleElement().asString().startsWith("overlap on r");
	}

	@Test
	void excusesAnOverlapOfTheClientFrozenDuringItsHold() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 5_000, false), op("c1-t0", 11, 200, 400, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(pause("c0", 150, 4_000, Excuse.CLIENT_STOPPED)),
				Map.of("r", new long[] { 1, 1 }), WINDOW);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.holdsOvertakenExcused).isEqualTo(1);
		assertThat(verdict.rejectedWrites).isEqualTo(1);
	}

	@Test
	void excusesLostUpdatesOnlyWhereLocksMayBeLost() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 300, true), op("c1-t0", 11, 200, 400, true));
		Map<String, long[]> oneUpdateLost = Map.of("r", new long[] { 1, 2 });
		Verdict excused = HistoryChecker.check(ops, List.of(pause("node", 50, 60, Excuse.LOCKS_LOST)), oneUpdateLost,
				WINDOW);
		assertThat(excused.violations).isEmpty();
		assertThat(excused.lostUpdatesExcused).isEqualTo(1);
		Verdict tooLate = HistoryChecker.check(ops, List.of(pause("node", 10, 20, Excuse.LOCKS_LOST)), oneUpdateLost,
				50);
		assertThat(tooLate.violations).anyMatch((violation) -> violation.contains("1 lost updates"))
			.anyMatch((violation) -> violation.startsWith("overlap"));
	}

	@Test
	void findsATokenThatWentBackOrWasHandedOutTwice() {
		List<Op> back = List.of(op("c0-t0", 11, 100, 200, true), op("c1-t0", 10, 300, 400, false));
		assertThat(HistoryChecker.check(back, List.of(), Map.of("r", new long[] { 1, 1 }), WINDOW).violations)
			.anyMatch((violation) -> violation.startsWith("token went back"));
		List<Op> twice = List.of(op("c0-t0", 10, 100, 200, true), op("c1-t0", 10, 300, 400, false));
		assertThat(HistoryChecker.check(twice, List.of(), Map.of("r", new long[] { 1, 1 }), WINDOW).violations)
			.anyMatch((violation) -> violation.contains("handed out twice"));
	}

	@Test
	void findsAStaleWriteTheFenceAccepted() {
		// Excused overlap (client frozen), but the fence must still have rejected c0.
		List<Op> ops = List.of(op("c0-t0", 10, 100, 5_000, true), op("c1-t0", 11, 200, 400, true));
		Verdict verdict = HistoryChecker.check(ops, List.of(pause("c0", 150, 4_000, Excuse.CLIENT_STOPPED)),
				Map.of("r", new long[] { 2, 2 }), WINDOW);
		assertThat(verdict.violations).singleElement().asString().startsWith("stale write accepted");
	}

	@Test
	void findsWritesTheClientsDidNotSee() {
		List<Op> ops = List.of(op("c0-t0", 10, 100, 200, true));
		assertThat(HistoryChecker.check(ops, List.of(), Map.of("r", new long[] { 2, 2 }), WINDOW).violations)
			.singleElement()
			.asString()
			.contains("clients saw 1 accepted");
	}

	@Test
	void excusesAnOverlapWithAHoldWhoseLeaseLapsedButNotTheOtherWayRound() {
		Op lapsed = new Op("c0-t0", "r", 10, 100, 150, 160, 300, false, false, "lost", LEASE, Hold.NEVER, 0);
		Op next = op("c1-t0", 11, 200, 400, true);
		Map<String, long[]> registers = Map.of("r", new long[] { 1, 1 });
		Verdict verdict = HistoryChecker.check(List.of(lapsed, next), List.of(), registers, WINDOW);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.leasesLapsed).isEqualTo(1);
		Op kept = op("c0-t0", 10, 100, 300, false);
		Op lapsedLater = new Op("c1-t0", "r", 11, 200, 250, 260, 400, true, false, "lost", LEASE, Hold.NEVER, 0);
		assertThat(HistoryChecker.check(List.of(kept, lapsedLater), List.of(), registers, WINDOW).violations)
			.singleElement()
			.asString()
			.startsWith("overlap on r");
	}

	/**
	 * A hold of {@code r} whose write is sent halfway, acknowledged just before the end.
	 */
	@Test
	void readHoldsMayOverlapEachOtherButNotAWriter() {
		List<Op> writes = List.of(op("c0-t0", 10, 100, 200, true), op("c0-t0", 14, 600, 700, true));
		List<SharedOp> reads = List.of(read("c1-t0", 11, 300, 500), read("c2-t0", 12, 350, 450));
		Verdict verdict = HistoryChecker.check(writes, reads, List.of(), Map.of("r", new long[] { 2, 2 }), WINDOW);
		assertThat(verdict.violations).isEmpty();
		assertThat(verdict.sharedHolds).isEqualTo(2);
		List<SharedOp> overlapping = List.of(read("c1-t0", 11, 150, 250));
		assertThat(HistoryChecker.check(writes, overlapping, List.of(), Map.of("r", new long[] { 2, 2 }),
				WINDOW).violations)
			.singleElement()
			.asString()
			.startsWith("READ and WRITE together on r");
	}

	@Test
	void aReadHoldOverlappingAWriterIsExcusedOnlyByAFault() {
		List<Op> writes = List.of(op("c0-t0", 12, 200, 300, true));
		List<SharedOp> reads = List.of(read("c1-t0", 11, 100, 250));
		Verdict excused = HistoryChecker.check(writes, reads, List.of(pause("c1", 120, 400, Excuse.CLIENT_STOPPED)),
				Map.of("r", new long[] { 1, 1 }), WINDOW);
		assertThat(excused.violations).isEmpty();
		assertThat(excused.sharedOverlapsExcused).isEqualTo(1);
	}

	@Test
	void findsMorePermitHoldsAtOnceThanPermits() {
		List<SharedOp> two = List.of(permit("c0-t0", 1, 100, 400), permit("c1-t0", 2, 200, 500));
		assertThat(HistoryChecker.check(List.of(), two, List.of(), Map.of(), WINDOW).violations).isEmpty();
		List<SharedOp> three = List.of(permit("c0-t0", 1, 100, 400), permit("c1-t0", 2, 200, 500),
				permit("c2-t0", 3, 300, 600));
		assertThat(HistoryChecker.check(List.of(), three, List.of(), Map.of(), WINDOW).violations).singleElement()
			.asString()
			.startsWith("more than 2 permits of s at once");
	}

	@Test
	void aTokenOfAnyHoldNeverGoesBack() {
		List<Op> writes = List.of(op("c0-t0", 10, 300, 400, true));
		List<SharedOp> reads = List.of(read("c1-t0", 11, 100, 200));
		assertThat(HistoryChecker.check(writes, reads, List.of(), Map.of("r", new long[] { 1, 1 }), WINDOW).violations)
			.singleElement()
			.asString()
			.startsWith("token went back on r");
	}

	@Test
	void sharedHoldsToldOfOutOfTokenOrderAreNoViolationButAWriterAfterThemIs() {
		// The second reader's acquire was applied first; its reply came after the first
		// reader had released.
		List<SharedOp> reads = List.of(read("c1-t0", 12, 100, 200), read("c2-t0", 11, 210, 300));
		assertThat(HistoryChecker.check(List.of(), reads, List.of(), Map.of(), WINDOW).violations).isEmpty();
		List<Op> staleWriter = List.of(op("c0-t0", 11, 400, 500, true));
		List<SharedOp> oneRead = List.of(read("c1-t0", 12, 100, 200));
		assertThat(HistoryChecker.check(staleWriter, oneRead, List.of(), Map.of("r", new long[] { 1, 1 }),
				WINDOW).violations)
			.singleElement()
			.asString()
			.startsWith("token went back on r");
	}

	private static SharedOp read(String client, long token, long acquired, long released) {
		return new SharedOp(client, "r", 0, token, acquired, released, true, "ok", LEASE);
	}

	private static SharedOp permit(String client, long token, long acquired, long released) {
		return new SharedOp(client, "s", 2, token, acquired, released, true, "ok", LEASE);
	}

	private static Op op(String client, long token, long acquired, long released, boolean accepted) {
		long middle = (acquired + released) / 2;
		return new Op(client, "r", token, acquired, middle, released - 1, released, accepted, true, "ok", LEASE,
				Hold.NEVER, 0);
	}

	private static Fault pause(String target, long start, long end, Excuse excuse) {
		return new Fault("test", target, start, end, excuse);
	}

}
