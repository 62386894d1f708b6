package io.github.distlock.autoconfigure;

import io.github.distlock.autoconfigure.DistributedLockProperties.Store;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Whether the configured store offers fair locks ({@code @DistributedLock(fair = true)})
 * and shared ones ({@code mode = READ}, {@code permits}), decided from the properties
 * alone, so that the operation source can reject a fair annotation at startup without
 * creating the store.
 */
final class FairLockSupport {

	private FairLockSupport() {
	}

	/**
	 * @return why fair locks are not available, naming the property, or {@code null} if
	 * they are
	 */
	static @Nullable String unsupportedReason(Environment environment) {
		return unsupportedReason(environment, "fair locks");
	}

	/**
	 * Shared locks ({@code mode = READ}, {@code permits} above 1) need what fair locks
	 * need: a queue and grants in one place.
	 * @return why shared locks are not available, naming the property, or {@code null} if
	 * they are
	 */
	static @Nullable String sharedUnsupportedReason(Environment environment) {
		return unsupportedReason(environment, "shared locks");
	}

	private static @Nullable String unsupportedReason(Environment environment, String what) {
		Binder binder = Binder.get(environment);
		Store store = binder.bind("distributed-lock.store", Store.class).orElse(Store.REDIS);
		if (store == Store.QUORUM) {
			return "distributed-lock.store=quorum has no " + what + " (a queue on N independent masters would need"
					+ " a quorum of its own); use distributed-lock.store=redis";
		}
		int minReplicas = binder.bind("distributed-lock.replication.min-replicas", Integer.class).orElse(0);
		if (store == Store.REDIS && minReplicas > 0) {
			return "distributed-lock.replication.min-replicas=" + minReplicas + " has no " + what + " (a release grants"
					+ " the lock to the next waiter without waiting for replicas)";
		}
		return null;
	}

}
