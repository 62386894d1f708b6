package io.github.distlock.core;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conservative deadline of an announced grant ({@link GrantWindow}), on made-up
 * {@code nanoTime} values.
 */
class GrantWindowTests {

	private static final long GRANT_LEASE = ms(2000);

	private static final long LEASE = ms(30_000);

	private final GrantWindow window = new GrantWindow(GRANT_LEASE);

	@Test
	void noGrantCanBeHeldBeforeAnAttemptWasRefused() {
		assertThat(this.window.holdsLongEnough(LEASE, ms(10))).isFalse();
	}

	@Test
	void aGrantRunsAGrantLeaseFromTheLastRefusedAttemptsSending() {
		this.window.refused(ms(100), ms(101));
		assertThat(this.window.deadlineNanos(LEASE, ms(200))).isEqualTo(ms(2100));
		assertThat(this.window.holdsLongEnough(LEASE, ms(1600))).isTrue();
		// Less than a quarter of the grant lease left: claimed instead.
		assertThat(this.window.holdsLongEnough(LEASE, ms(1700))).isFalse();
		// Attempts a re-check apart move the window on.
		this.window.refused(ms(1100), ms(1102));
		assertThat(this.window.deadlineNanos(LEASE, ms(1200))).isEqualTo(ms(3100));
	}

	@Test
	void aShorterLeaseAskedForBoundsTheGrant() {
		this.window.refused(ms(100), ms(101));
		assertThat(this.window.deadlineNanos(ms(400), ms(200))).isEqualTo(ms(500));
		assertThat(this.window.holdsLongEnough(ms(400), ms(200))).isTrue();
		assertThat(this.window.holdsLongEnough(ms(400), ms(450))).isFalse();
	}

	@Test
	void anAttemptAnsweredMoreThanAGrantLeaseAfterTheEarliestGrantKeepsTheWindowWhereItWas() {
		this.window.refused(ms(0), ms(1));
		// A grant made after the first attempt may have run out before this one was
		// applied: it may be the one announced, so the deadline is not moved on.
		this.window.refused(ms(1000), ms(2500));
		assertThat(this.window.deadlineNanos(LEASE, ms(2600))).isEqualTo(ms(2000));
		assertThat(this.window.holdsLongEnough(LEASE, ms(2600))).isFalse();
		this.window.refused(ms(3000), ms(3001));
		assertThat(this.window.holdsLongEnough(LEASE, ms(3100))).isFalse();
	}

	@Test
	void aStoreThatNeverGrantsNeverHoldsAGrant() {
		GrantWindow never = new GrantWindow(0);
		never.refused(ms(100), ms(101));
		assertThat(never.holdsLongEnough(LEASE, ms(101))).isFalse();
	}

	private static long ms(long millis) {
		return TimeUnit.MILLISECONDS.toNanos(millis);
	}

}
