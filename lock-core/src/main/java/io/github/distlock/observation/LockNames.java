package io.github.distlock.observation;

import org.jspecify.annotations.Nullable;

/**
 * The bounded lock name the default conventions tag observations with.
 */
final class LockNames {

	/** Tag value of programmatic lock ids without a {@code name:} part. */
	static final String UNNAMED = "unnamed";

	private LockNames() {
	}

	/**
	 * The static name if the caller knew it; otherwise the lock id's text before its
	 * first {@code ':'}, which is the name by the convention annotations follow
	 * ({@code name:key}). Never the whole id: an id without a name part may well be an
	 * order id.
	 */
	static String of(@Nullable String lockName, String lockId) {
		if (lockName != null) {
			return lockName;
		}
		int colon = lockId.indexOf(':');
		return (colon > 0) ? lockId.substring(0, colon) : UNNAMED;
	}

}
