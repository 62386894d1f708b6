package io.github.distlock.store;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that starts at the wall-clock time of its creation and then moves on with
 * {@link System#nanoTime()}: never backwards and never by a jump when the system clock is
 * set. Leases in memory must run on it, as the engine's own deadlines do: a wall clock
 * set forward would end a lease in the store while its holder still counts it as held.
 */
final class MonotonicClock extends Clock {

	private final Instant start;

	private final long startNanos;

	private final ZoneId zone;

	MonotonicClock() {
		this(Instant.now(), System.nanoTime(), ZoneOffset.UTC);
	}

	private MonotonicClock(Instant start, long startNanos, ZoneId zone) {
		this.start = start;
		this.startNanos = startNanos;
		this.zone = zone;
	}

	@Override
	public ZoneId getZone() {
		return this.zone;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return new MonotonicClock(this.start, this.startNanos, zone);
	}

	@Override
	public Instant instant() {
		return this.start.plusNanos(System.nanoTime() - this.startNanos);
	}

}
