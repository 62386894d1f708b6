package io.github.distlock.core;

import java.time.Duration;

import io.github.distlock.support.DurationText;
import io.github.distlock.support.LogSafe;
import org.jspecify.annotations.Nullable;

/**
 * The checks of what callers pass to the engine, each failing with a message that names
 * the argument, the lock and the value.
 */
final class LockArguments {

	private static final Duration MIN_LEASE = Duration.ofMillis(1);

	private static final long LONGEST_WAIT_NANOS = Long.MAX_VALUE / 4;

	private static final Duration LONGEST_WAIT = Duration.ofNanos(LONGEST_WAIT_NANOS);

	private LockArguments() {
	}

	static void check(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
		checkLockId(lockId);
		if (waitTime == null || waitTime.isNegative()) {
			throw new IllegalArgumentException("waitTime of lock '" + LogSafe.text(lockId)
					+ "' must not be null or negative, but was " + DurationText.of(waitTime));
		}
		if (leaseTime != null && leaseTime.compareTo(MIN_LEASE) < 0) {
			throw new IllegalArgumentException("leaseTime of lock '" + LogSafe.text(lockId)
					+ "' must be at least 1ms (or null for an auto-renewed lease), but was "
					+ DurationText.of(leaseTime));
		}
	}

	/**
	 * A wait in nanoseconds, saturated at {@code Long.MAX_VALUE / 4}: a deadline of now
	 * plus it never overflows, and a wait of centuries (or {@code ChronoUnit.FOREVER})
	 * waits as long as the caller lives.
	 */
	static long waitNanos(Duration waitTime) {
		if (waitTime.compareTo(LONGEST_WAIT) >= 0) {
			return LONGEST_WAIT_NANOS;
		}
		return waitTime.toNanos();
	}

	static void checkLockId(String lockId) {
		if (lockId == null || lockId.isEmpty()) {
			throw new IllegalArgumentException("lockId must not be null or empty");
		}
	}

	/**
	 * The new lease of {@link io.github.distlock.LockHandle#extend(Duration)}: at least 1
	 * ms, and at least 3 ms for an auto-renewed lock, which is renewed every third of it.
	 */
	static void checkExtendedLease(HeldLock held, Duration leaseTime) {
		Duration least = Duration.ofMillis(held.autoRenewed ? 3 : 1);
		if (leaseTime == null || leaseTime.compareTo(least) < 0) {
			throw new IllegalArgumentException("leaseTime to extend lock '" + LogSafe.text(held.entry.lockId)
					+ "' with must be at least " + least.toMillis() + "ms"
					+ (held.autoRenewed ? " for an auto-renewed lock (renewed every third of it)" : "") + ", but was "
					+ DurationText.of(leaseTime));
		}
	}

}
