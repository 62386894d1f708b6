package io.github.distlock.actuate;

import java.util.List;

import io.github.distlock.core.HeldLockInfo;
import io.github.distlock.core.LockInspection;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.core.NestedExceptionUtils;

/**
 * Health of the locks of this instance: DOWN when a held lock's renewal is failing (its
 * lease is running out) or when the lock scripts cannot run on Redis (one
 * side-effect-free round trip); UP otherwise. Details: held locks, the ids whose renewal
 * fails, locks lost and failed renewals since startup.
 */
public class DistributedLockHealthIndicator extends AbstractHealthIndicator {

	/** At most this many failing lock ids are listed. */
	private static final int MAX_LISTED = 10;

	private final LockInspection lockService;

	public DistributedLockHealthIndicator(LockInspection lockService) {
		super("Distributed lock health check failed");
		this.lockService = lockService;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		List<HeldLockInfo> held = this.lockService.heldLocks();
		List<String> renewalFailing = held.stream()
			.filter(HeldLockInfo::renewalFailing)
			.map(HeldLockInfo::lockId)
			.limit(MAX_LISTED)
			.toList();
		builder.withDetail("heldLocks", held.size())
			.withDetail("locksLost", this.lockService.locksLost())
			.withDetail("renewalFailures", this.lockService.renewalFailures());
		if (!renewalFailing.isEmpty()) {
			builder.withDetail("renewalFailing", renewalFailing);
		}
		try {
			this.lockService.verifyStore();
		}
		catch (RuntimeException ex) {
			// The root cause says why (connection refused, NOPERM, timeout); the wrapper
			// does not.
			builder.down(NestedExceptionUtils.getMostSpecificCause(ex));
			return;
		}
		if (renewalFailing.isEmpty()) {
			builder.up();
		}
		else {
			builder.down();
		}
	}

}
