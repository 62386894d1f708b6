package io.github.distlock;

/**
 * What an {@link DistributedLock @DistributedLock} method does when its lock is not
 * acquired within the wait time.
 */
public enum OnLockFailure {

	/**
	 * The method is not invoked; {@link LockNotAcquiredException} is thrown.
	 */
	THROW,

	/**
	 * The method is not invoked; it returns {@code Optional.empty()} for
	 * {@code Optional}, {@code false} for {@code boolean}, {@code 0} for other
	 * primitives, nothing for {@code void}, an empty {@code Mono} or {@code Flux} or a
	 * future completed with {@code null} for reactive and async methods, and {@code null}
	 * for other reference types.
	 */
	SKIP

}
