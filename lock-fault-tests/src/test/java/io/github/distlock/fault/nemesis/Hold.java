package io.github.distlock.fault.nemesis;

/**
 * A hold of a lock id as a client recorded it, exclusive ({@link Op}) or shared
 * ({@link SharedOp}): who held it, its fencing token, from when to when (one host's
 * monotonic clock), its lease, and what its holder learned of a loss while it held: when
 * {@code isHeld()} or {@code extend()} first said the lock was gone, whether it still
 * believed it held just before the release, and how the release ended.
 */
interface Hold {

	/**
	 * {@link #sawLossNanos()} of a holder that never saw its lock gone before the
	 * release.
	 */
	long NEVER = Long.MAX_VALUE;

	String client();

	String lockId();

	long token();

	long acquiredNanos();

	long releasedNanos();

	boolean heldAtEnd();

	/**
	 * How the release ended: {@code ok}, {@code lost} ({@code close()} threw
	 * {@code LockLostException}) or {@code failed}.
	 */
	String release();

	/** The longest lease the hold had, in ms: the service's, or one its extends set. */
	long leaseMillis();

	/**
	 * When its holder first saw {@code isHeld()} or {@code extend()} answer that the lock
	 * was no longer held, while it held it (before the release's own check);
	 * {@link #NEVER} if it did not.
	 */
	default long sawLossNanos() {
		return NEVER;
	}

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
