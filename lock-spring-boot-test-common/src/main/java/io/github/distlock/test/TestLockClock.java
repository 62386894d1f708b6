package io.github.distlock.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import io.github.distlock.support.DurationText;

/**
 * The clock of the in-memory locks in a test: it stands still until the test moves it on
 * with {@link #advance(Duration)}. Leases in the store run out on it, and fencing tokens
 * come from it; the engine's own deadlines (how long a caller waits, the local view of a
 * lease) keep running on {@link System#nanoTime()}.
 */
public final class TestLockClock extends Clock {

	private volatile Instant now;

	/**
	 * A clock standing at {@code start}.
	 * @param start the time it shows until moved on
	 */
	public TestLockClock(Instant start) {
		if (start == null) {
			throw new IllegalArgumentException("start must not be null");
		}
		this.now = start;
	}

	/**
	 * Moves the clock on.
	 * @param duration how far, not negative
	 */
	public synchronized void advance(Duration duration) {
		if (duration == null || duration.isNegative()) {
			throw new IllegalArgumentException(
					"A TestLockClock only moves forward: duration must not be negative, but was "
							+ DurationText.of(duration));
		}
		this.now = this.now.plus(duration);
	}

	@Override
	public Instant instant() {
		return this.now;
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("A TestLockClock runs in UTC only");
	}

	@Override
	public String toString() {
		return "TestLockClock[" + this.now + "]";
	}

}
