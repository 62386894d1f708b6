package io.github.distlock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What a lock service lets operators see: the {@code locks} endpoint, the
 * {@code distributedLock} health contributor and the lock meters are built on it, not on
 * a concrete service. distlock's own services implement it; a user's own
 * {@link io.github.distlock.LockService} gets the endpoint, health and meters by
 * implementing it too, and declaring its bean with a type that shows it (the class
 * itself, or an interface extending both): the conditions look at the bean's declared
 * type, as Spring Boot's always do.
 */
public interface LockInspection {

	/**
	 * The locks this instance holds now.
	 * @return a snapshot, one entry per exclusive lock, per thread's READ hold and per
	 * permit held
	 */
	List<HeldLockInfo> heldLocks();

	/**
	 * How long the current holder's lease (on any instance) still runs, in one round trip
	 * to the store.
	 * @param lockId the lock id
	 * @return the remaining lease, or empty if nobody holds the lock
	 */
	Optional<Duration> remainingLease(String lockId);

	/**
	 * Locks found lost since startup.
	 * @return the count
	 */
	long locksLost();

	/**
	 * Failed renewal attempts since startup (a renewal is retried until the lease runs
	 * out).
	 * @return the count
	 */
	long renewalFailures();

	/**
	 * Acquisitions and hand-overs that the store wrote but too few replicas acknowledged
	 * in time (so they were undone and failed), since startup; always 0 unless the store
	 * waits for replicas.
	 * @return the count
	 */
	default long replicationFailures() {
		return 0;
	}

	/**
	 * Whether the last renewal of any held lock failed.
	 * @return {@code true} while a held lock's renewal is failing
	 */
	boolean isRenewalFailing();

	/**
	 * One round trip that changes nothing but fails when the store cannot be reached or
	 * refuses to run the lock operations (e.g. a Redis ACL without the scripts or the key
	 * prefix).
	 * @throws RuntimeException when the lock operations cannot run
	 */
	void verifyStore();

}
