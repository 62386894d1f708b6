package io.github.distlock.store;

/**
 * The checks of what callers pass to an {@link InMemoryLockStore}, each failing with a
 * message naming the argument and the value.
 */
final class InMemoryArguments {

	private InMemoryArguments() {
	}

	static void check(String key, String owner, long leaseMillis) {
		checkKey(key);
		checkOwner("owner", owner);
		if (leaseMillis < 1) {
			throw new IllegalArgumentException("leaseMillis must be at least 1, but was " + leaseMillis);
		}
	}

	/** {@link #check(String, String, long)}, and a wait time not negative. */
	static void check(String key, String owner, long leaseMillis, long waitMillis) {
		check(key, owner, leaseMillis);
		if (waitMillis < 0) {
			throw new IllegalArgumentException("waitMillis must not be negative, but was " + waitMillis);
		}
	}

	/** {@link #check(String, String, long)}, and 0 or at least 2 permits. */
	static void checkShared(String key, String owner, int permits, long leaseMillis) {
		check(key, owner, leaseMillis);
		if (permits < 0 || permits == 1) {
			throw new IllegalArgumentException("permits must be 0 (READ) or at least 2, but was " + permits);
		}
	}

	static void checkKey(String key) {
		if (key == null || key.isEmpty()) {
			throw new IllegalArgumentException("key must not be null or empty, but was " + key);
		}
	}

	static void checkOwner(String name, String owner) {
		if (owner == null || owner.isEmpty()) {
			throw new IllegalArgumentException(name + " must not be null or empty, but was " + owner);
		}
	}

}
