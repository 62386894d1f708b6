package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leases whose renewal interval exceeds two seconds get their first renewal scheduled by
 * the renewer's once-a-second sweep instead of at acquisition; they must still be renewed
 * in time.
 */
class LongLeaseRenewalTests {

	/** Renewal interval 2.33 s: above the direct-scheduling limit of 2 s. */
	private static final Duration LEASE = Duration.ofMillis(7000);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void aLockWithALongLeaseIsRenewedBeforeTheLeaseRunsOut() {
		LockEngine service = this.clients.newService(RedisLockSettings.defaults().withLeaseTime(LEASE));
		LockEngine other = this.clients.newService(RedisLockSettings.defaults().withLeaseTime(LEASE));
		LockHandle handle = service.lock("long", Duration.ZERO);
		long acquiredAt = System.nanoTime();
		// Without renewal less than 7 - 3 = 4 s would remain after 3 s.
		await().pollDelay(Duration.ofSeconds(3))
			.atMost(Duration.ofSeconds(10))
			.until(() -> other.remainingLease("long").orElseThrow().toMillis() > 4500);
		// Past the whole first lease, the lock is still ours and still excludes the other
		// instance.
		await().pollDelay(Duration.ofMillis(100))
			.atMost(Duration.ofSeconds(20))
			.until(() -> System.nanoTime() - acquiredAt > LEASE.toNanos() + 500_000_000L);
		assertThat(handle.isHeld()).isTrue();
		assertThat(other.tryLock("long", Duration.ZERO, null)).isEmpty();
		handle.close();
		assertThat(other.isLocked("long")).isFalse();
	}

	@Test
	void aLockReleasedBeforeItsFirstRenewalIsNotRenewed() {
		LockEngine service = this.clients.newService(RedisLockSettings.defaults().withLeaseTime(LEASE));
		service.lock("short-lived", Duration.ZERO).close();
		LockHandle next = this.clients.newService(RedisLockSettings.defaults().withLeaseTime(LEASE))
			.tryLock("short-lived", Duration.ZERO, Duration.ofMinutes(1))
			.orElseThrow();
		// A stale renewal of the first holder would be owner-checked anyway; the lease
		// set here must stay.
		await().pollDelay(Duration.ofMillis(3500))
			.atMost(Duration.ofSeconds(10))
			.until(() -> service.heldLocks().isEmpty());
		assertThat(next.isHeld()).isTrue();
		assertThat(service.remainingLease("short-lived").orElseThrow()).isGreaterThan(Duration.ofSeconds(50));
		next.close();
	}

}
