package io.github.distlock;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of one hold of a lock by this instance, for operators: one per exclusive
 * lock and per thread's READ hold, one per permit.
 *
 * @param lockId the raw lock id
 * @param fencingToken the fencing token of this hold
 * @param heldSince when the lock was acquired (or handed over to its current holder)
 * @param leaseRemaining time until the lease ends unless renewed, by this instance's
 * clock
 * @param depth how many nested holds the owner thread has
 * @param autoRenewed whether the watchdog renews the lease
 * @param renewalFailing whether the last renewal attempt failed
 * @param name the {@code @DistributedLock} name it was acquired under, {@code null} for
 * programmatic locks
 * @param mode what kind of hold it is
 * @param permits the number of permits of the id for {@link Mode#PERMITS}, else 0
 */
public record HeldLockInfo(String lockId, long fencingToken, Instant heldSince, Duration leaseRemaining, int depth,
		boolean autoRenewed, boolean renewalFailing, @Nullable String name, Mode mode, int permits) {

	/**
	 * A snapshot of an exclusive hold.
	 * @param lockId the raw lock id
	 * @param fencingToken the fencing token of this hold
	 * @param heldSince when the lock was acquired
	 * @param leaseRemaining time until the lease ends unless renewed
	 * @param depth how many nested holds the owner thread has
	 * @param autoRenewed whether the watchdog renews the lease
	 * @param renewalFailing whether the last renewal attempt failed
	 * @param name the {@code @DistributedLock} name, or {@code null}
	 */
	public HeldLockInfo(String lockId, long fencingToken, Instant heldSince, Duration leaseRemaining, int depth,
			boolean autoRenewed, boolean renewalFailing, @Nullable String name) {
		this(lockId, fencingToken, heldSince, leaseRemaining, depth, autoRenewed, renewalFailing, name, Mode.EXCLUSIVE,
				0);
	}

	/**
	 * What kind of hold a {@link HeldLockInfo} is.
	 */
	public enum Mode {

		/** The exclusive lock ({@code LockService} itself, {@code fair()}, WRITE). */
		EXCLUSIVE,

		/**
		 * A READ hold ({@code read()}, {@code mode = READ}), shared with other readers.
		 */
		READ,

		/** A permit of a semaphore ({@code permits(n)}, {@code permits = n}). */
		PERMITS

	}

}
