package io.github.distlock.benchmarks;

/**
 * One application instance that acquires many locks and keeps them, each renewed by its
 * library in the background, for the held-locks scenario ({@link HeldLocksScenario}).
 * Unlike {@link LockClient}, acquisition and release are separate calls, possibly on
 * different threads.
 */
interface LockHolder extends AutoCloseable {

	/**
	 * Acquires {@code lockId} without waiting (the ids are distinct), with the library's
	 * auto-renewed lease.
	 * @throws IllegalStateException if it was not acquired
	 */
	Hold hold(String lockId);

	@Override
	void close();

	/** One lock held by a {@link LockHolder}. */
	interface Hold {

		/**
		 * Whether the lock is still held, as the library's public API tells from Redis.
		 */
		boolean stillHeld();

		/**
		 * Releases the lock.
		 * @return {@code false} if the library found it lost on release
		 */
		boolean release();

	}

}
