package io.github.distlock.store;

import org.jspecify.annotations.Nullable;

/**
 * The reply an {@link InMemoryLockStore} operation computed inside its atomic update, and
 * what to announce after it: a release, or a grant to a fair waiter.
 */
final class InMemoryReply<T> {

	@Nullable T value;

	boolean announce;

	/** The owner the lock was granted to, announced after the update. */
	@Nullable String grantedTo;

	/** The fencing token of that grant. */
	long grantToken;

	T get() {
		if (this.value == null) {
			throw new IllegalStateException("No reply computed");
		}
		return this.value;
	}

}
