package io.github.distlock.fault.nemesis;

/**
 * A hold of a lock id as a client recorded it, exclusive ({@link Op}) or shared
 * ({@link SharedOp}): who held it, its fencing token, from when to when (one host's
 * monotonic clock), and whether its holder still believed it held at the end.
 */
interface Hold {

	String client();

	String lockId();

	long token();

	long acquiredNanos();

	long releasedNanos();

	boolean heldAtEnd();

	/** Whether this hold and {@code other} share an instant (same lock id). */
	default boolean overlaps(Hold other) {
		return lockId().equals(other.lockId()) && acquiredNanos() - other.releasedNanos() < 0
				&& other.acquiredNanos() - releasedNanos() < 0;
	}

	/**
	 * Whether this hold excludes every other hold of its id: {@code true} for a lock,
	 * {@code false} for a shared hold (holds that may coexist can be acquired in one
	 * order and told of in the other, so their tokens do not follow their intervals).
	 */
	default boolean exclusive() {
		return true;
	}

	/** Whether this hold ended before {@code other} started. */
	default boolean endedBefore(Hold other) {
		return releasedNanos() - other.acquiredNanos() < 0;
	}

}
