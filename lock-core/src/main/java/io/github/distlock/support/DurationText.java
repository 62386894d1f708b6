package io.github.distlock.support;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Prints a {@link Duration} for a message the way Spring Boot's properties write one:
 * {@code 300ms}, {@code 5s}, {@code 2m}, never ISO-8601's {@code PT0.3S}. The unit is the
 * largest that shows the duration exactly, so the text parses back to the same duration
 * (as a property value or an annotation attribute).
 */
public final class DurationText {

	private static final long NANOS_PER_MICRO = 1_000L;

	private static final long NANOS_PER_MILLI = 1_000_000L;

	private static final long SECONDS_PER_MINUTE = 60L;

	private static final long SECONDS_PER_HOUR = 3_600L;

	private static final long SECONDS_PER_DAY = 86_400L;

	private DurationText() {
	}

	/**
	 * The duration in one unit: {@code d}, {@code h}, {@code m}, {@code s}, {@code ms},
	 * {@code us} or {@code ns}.
	 * @param duration the duration, or {@code null}
	 * @return e.g. {@code "300ms"}, {@code "5s"}, {@code "-5s"}, {@code "0s"};
	 * {@code "null"} for {@code null}
	 */
	public static String of(@Nullable Duration duration) {
		if (duration == null) {
			return "null";
		}
		if (duration.isZero()) {
			return "0s";
		}
		if (duration.isNegative()) {
			return "-" + of(duration.negated());
		}
		long seconds = duration.getSeconds();
		int nanos = duration.getNano();
		if (nanos == 0) {
			if (seconds % SECONDS_PER_DAY == 0) {
				return (seconds / SECONDS_PER_DAY) + "d";
			}
			if (seconds % SECONDS_PER_HOUR == 0) {
				return (seconds / SECONDS_PER_HOUR) + "h";
			}
			if (seconds % SECONDS_PER_MINUTE == 0) {
				return (seconds / SECONDS_PER_MINUTE) + "m";
			}
			return seconds + "s";
		}
		if (nanos % NANOS_PER_MILLI == 0) {
			return duration.toMillis() + "ms";
		}
		if (nanos % NANOS_PER_MICRO == 0) {
			return (seconds * 1_000_000L + nanos / NANOS_PER_MICRO) + "us";
		}
		return duration.toNanos() + "ns";
	}

}
