package io.github.distlock.core;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conservative deadline of an announced grant ({@link GrantWindow}), on made-up
 * {@code nanoTime} values: a grant carries the lease the waiter asked for.
 */
class GrantWindowTests {

	private static final long LEASE = ms(30_000);

	private final GrantWindow window = new GrantWindow(LEASE);

	@Test
	void noGrantCanBeHeldBeforeAnAttemptWasRefused() {
		assertThat(this.window.holdsLongEnough(ms(10))).isFalse();
	}

	@Test
	void aGrantRunsTheLeaseAskedForFromTheLastRefusedAttemptsSending() {
		this.window.refused(ms(100), ms(101));
		assertThat(this.window.deadlineNanos(ms(200))).isEqualTo(ms(30_100));
		assertThat(this.window.holdsLongEnough(ms(22_600))).isTrue();
		// Less than a quarter of the lease left: claimed instead.
		assertThat(this.window.holdsLongEnough(ms(22_700))).isFalse();
		// Attempts a re-check apart move the window on.
		this.window.refused(ms(1100), ms(1102));
		assertThat(this.window.deadlineNanos(ms(1200))).isEqualTo(ms(31_100));
	}

	@Test
	void aShortLeaseMakesAShortGrant() {
		GrantWindow shortLease = new GrantWindow(ms(400));
		shortLease.refused(ms(100), ms(101));
		assertThat(shortLease.deadlineNanos(ms(200))).isEqualTo(ms(500));
		assertThat(shortLease.holdsLongEnough(ms(200))).isTrue();
		assertThat(shortLease.holdsLongEnough(ms(450))).isFalse();
	}

	@Test
	void anAttemptAnsweredMoreThanALeaseAfterTheEarliestGrantKeepsTheWindowWhereItWas() {
		GrantWindow shortLease = new GrantWindow(ms(2000));
		shortLease.refused(ms(0), ms(1));
		// A grant made after the first attempt may have run out before this one was
		// applied: it may be the one announced, so the deadline is not moved on.
		shortLease.refused(ms(1000), ms(2500));
		assertThat(shortLease.deadlineNanos(ms(2600))).isEqualTo(ms(2000));
		assertThat(shortLease.holdsLongEnough(ms(2600))).isFalse();
		shortLease.refused(ms(3000), ms(3001));
		assertThat(shortLease.holdsLongEnough(ms(3100))).isFalse();
	}

	@Test
	void anUnansweredFirstAttemptStartsTheWindowAtItsSending() {
		// Seed 1736 of the simulation: the first attempt (sent at 0, lease 532 ms) went
		// unanswered after a 1 s timeout but was queued, and granted at 13 ms; the retry
		// at 1000 ms was refused. The grant announced meanwhile had run out.
		GrantWindow shortLease = new GrantWindow(ms(532));
		shortLease.unanswered(ms(0));
		shortLease.refused(ms(1000), ms(1001));
		assertThat(shortLease.deadlineNanos(ms(1001))).isEqualTo(ms(532));
		assertThat(shortLease.holdsLongEnough(ms(1001))).isFalse();
	}

	@Test
	void aLaterUnansweredAttemptMovesNothing() {
		this.window.refused(ms(100), ms(101));
		this.window.unanswered(ms(5000));
		assertThat(this.window.deadlineNanos(ms(6000))).isEqualTo(ms(30_100));
	}

	@Test
	void aStoreThatNeverGrantsNeverHoldsAGrant() {
		GrantWindow never = new GrantWindow(0);
		never.refused(ms(100), ms(101));
		assertThat(never.holdsLongEnough(ms(101))).isFalse();
	}

	private static long ms(long millis) {
		return TimeUnit.MILLISECONDS.toNanos(millis);
	}

}
