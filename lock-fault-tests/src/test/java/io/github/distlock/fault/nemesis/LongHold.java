package io.github.distlock.fault.nemesis;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.github.distlock.LockHandle;
import io.github.distlock.testsupport.FencedResource;

/**
 * The long hold of the nemesis workload: a lock held for several seconds on a lease
 * longer than the service's, extended now and then, its id's counter incremented as by a
 * short operation (read after the first extend, written back plus one at the end with the
 * hold's token).
 * <p>
 * Leases over 3 s are renewed in batches by the engine's renewal sweep, shorter ones one
 * lock at a time: every lease here is 3.3 s or more, so each extend may meet a batch
 * renewal of the lock. After the last extend the holder keeps the lock for that lease and
 * {@link #BEYOND_LEASE} more, asking {@code isHeld()} every 100-200 ms but going on
 * whatever it answers: a lock left unrenewed then lapses while it is held, and the engine
 * has had time to tell its holder (which the {@link HistoryChecker} demands).
 */
final class LongHold {

	/**
	 * How long the hold goes on after the lease of its last extend would have ended: more
	 * than the checker's slack for a loss signal, plus a poll.
	 */
	static final Duration BEYOND_LEASE = Duration.ofSeconds(2);

	/** The shortest lease of an extend: the sweep renews only leases over 3 s. */
	static final Duration SHORTEST_LEASE = Duration.ofMillis(3300);

	private LongHold() {
	}

	/**
	 * @param acquiredAt when the acquire returned, before the token was read (see
	 * {@link Op})
	 * @param lease the service's lease, which the hold starts with
	 * @param longLease the first extend's lease, and the longest
	 */
	static Op run(String thread, LockHandle handle, long acquiredAt, FencedResource resource, Duration lease,
			Duration longLease, ThreadLocalRandom random) {
		HoldWatch watch = new HoldWatch(lease);
		watch.extend(handle, longLease);
		String read = resource.value(handle.lockId());
		long next = ((read != null) ? Long.parseLong(read) : 0) + 1;
		Duration last = longLease;
		for (int extensions = 1 + random.nextInt(3); extensions > 0; extensions--) {
			NemesisClient.pause(random.nextLong(300, 1300));
			if (watch.check(handle)) {
				last = Duration.ofMillis(random.nextLong(SHORTEST_LEASE.toMillis(), longLease.toMillis() + 1));
				watch.extend(handle, last);
			}
		}
		long until = System.nanoTime() + last.plus(BEYOND_LEASE).toNanos();
		while (System.nanoTime() - until < 0) {
			NemesisClient.pause(random.nextLong(100, 200));
			watch.check(handle);
		}
		long writeSentAt = System.nanoTime();
		boolean accepted = resource.write(handle.lockId(), handle.fencingToken(), Long.toString(next));
		long writeAckAt = System.nanoTime();
		long releasingAt = System.nanoTime();
		boolean heldAtEnd = handle.isHeld();
		String release = NemesisClient.release(handle);
		return new Op(thread, handle.lockId(), handle.fencingToken(), acquiredAt, writeSentAt, writeAckAt, releasingAt,
				accepted, heldAtEnd, release, watch.leaseMillis(), watch.sawLossNanos(), watch.extensions());
	}

}
