package io.github.distlock.autoconfigure;

import io.github.distlock.autoconfigure.DistributedLockProperties.Store;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Whether the configured store offers fair locks ({@code @DistributedLock(fair = true)}),
 * decided from the properties alone, so that the operation source can reject a fair
 * annotation at startup without creating the store.
 */
final class FairLockSupport {

	private FairLockSupport() {
	}

	/**
	 * @return why fair locks are not available, naming the property, or {@code null} if
	 * they are
	 */
	static @Nullable String unsupportedReason(Environment environment) {
		Binder binder = Binder.get(environment);
		Store store = binder.bind("distributed-lock.store", Store.class).orElse(Store.REDIS);
		if (store == Store.QUORUM) {
			return "distributed-lock.store=quorum has no fair locks (a queue on N independent masters would need"
					+ " a quorum of its own); use distributed-lock.store=redis";
		}
		int minReplicas = binder.bind("distributed-lock.replication.min-replicas", Integer.class).orElse(0);
		if (store == Store.REDIS && minReplicas > 0) {
			return "distributed-lock.replication.min-replicas=" + minReplicas + " has no fair locks (a release grants"
					+ " the lock to the next waiter without waiting for replicas)";
		}
		return null;
	}

}
