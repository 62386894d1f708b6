package io.github.distlock.core;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of one lock held by this instance, for operators.
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
 */
public record HeldLockInfo(String lockId, long fencingToken, Instant heldSince, Duration leaseRemaining, int depth,
		boolean autoRenewed, boolean renewalFailing, @Nullable String name) {

}
