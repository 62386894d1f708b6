package io.github.distlock.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.distlock.HeldLockInfo;
import io.github.distlock.LockInspection;
import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;

/**
 * Health of the locks of this instance, independent of the Boot line's health API (each
 * line's {@code DistributedLockHealthIndicator} maps it onto its own {@code Health}):
 * DOWN when a held lock's renewal is failing (its lease is running out) or when the lock
 * scripts cannot run on the store (one side-effect-free round trip); UP otherwise.
 *
 * @param up whether the locks are healthy
 * @param details held locks, locks lost and failed renewals since startup, and the ids
 * whose renewal fails (at most {@value #MAX_LISTED})
 * @param failure why the store could not be verified, the root cause (connection refused,
 * NOPERM, timeout) rather than its wrappers; {@code null} when it could
 */
public record LockHealth(boolean up, Map<String, Object> details, @Nullable Throwable failure) {

	/** At most this many failing lock ids are listed. */
	public static final int MAX_LISTED = 10;

	/**
	 * Checks the locks of the given lock service.
	 * @param lockService the lock service
	 * @return its health
	 */
	public static LockHealth check(LockInspection lockService) {
		List<HeldLockInfo> held = lockService.heldLocks();
		List<String> renewalFailing = held.stream()
			.filter(HeldLockInfo::renewalFailing)
			.map(HeldLockInfo::lockId)
			.limit(MAX_LISTED)
			.toList();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("heldLocks", held.size());
		details.put("locksLost", lockService.locksLost());
		details.put("renewalFailures", lockService.renewalFailures());
		if (!renewalFailing.isEmpty()) {
			details.put("renewalFailing", renewalFailing);
		}
		try {
			lockService.verifyStore();
		}
		catch (RuntimeException ex) {
			return new LockHealth(false, details, NestedExceptionUtils.getMostSpecificCause(ex));
		}
		return new LockHealth(renewalFailing.isEmpty(), details, null);
	}

}
