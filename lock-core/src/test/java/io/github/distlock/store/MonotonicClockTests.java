package io.github.distlock.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-memory store's default clock starts at the wall-clock time and moves on with
 * {@link System#nanoTime()}.
 */
class MonotonicClockTests {

	@Test
	void startsAtTheWallClockAndNeverGoesBackwards() {
		Instant before = Instant.now();
		Clock clock = InMemoryLockStore.monotonicClock();
		Instant previous = clock.instant();
		assertThat(previous).isAfterOrEqualTo(before.minusMillis(1));
		for (int i = 0; i < 100_000; i++) {
			Instant next = clock.instant();
			assertThat(next).isAfterOrEqualTo(previous);
			previous = next;
		}
		assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
	}

	@Test
	void movesWithNanoTime() {
		Clock clock = InMemoryLockStore.monotonicClock();
		long startNanos = System.nanoTime();
		Instant start = clock.instant();
		long busyUntil = startNanos + Duration.ofMillis(20).toNanos();
		while (System.nanoTime() - busyUntil < 0) {
			Thread.onSpinWait();
		}
		Instant later = clock.instant();
		long elapsedNanos = System.nanoTime() - startNanos;
		assertThat(Duration.between(start, later)).isGreaterThanOrEqualTo(Duration.ofMillis(20))
			.isLessThanOrEqualTo(Duration.ofNanos(elapsedNanos));
	}

	@Test
	void keepsItsTimeInAnotherZone() {
		Clock clock = InMemoryLockStore.monotonicClock();
		Clock paris = clock.withZone(ZoneId.of("Europe/Paris"));
		assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
		Instant utc = clock.instant();
		assertThat(paris.instant()).isAfterOrEqualTo(utc);
		assertThat(clock.instant()).isAfterOrEqualTo(utc);
	}

}
