package io.github.distlock.core;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.support.LogSafe;

/**
 * How the engine treats an interrupted caller: an interrupt is an answer ("stop
 * waiting"), never a failure of the store, and the caller's interrupt flag is always
 * kept.
 */
final class Interrupts {

	private Interrupts() {
	}

	/**
	 * Whether {@code failure} was caused by an interrupt: a store client gave up waiting
	 * for a reply because the calling thread was interrupted.
	 */
	static boolean isCause(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InterruptedException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Sets the calling thread's interrupt flag again and returns the exception that
	 * reports the interrupt to a caller of {@code tryLock}.
	 * @param lockId the lock waited for
	 * @return the exception to throw
	 */
	static LockNotAcquiredException restoreFlagAndFail(String lockId) {
		Thread.currentThread().interrupt();
		return new LockNotAcquiredException(lockId, "Interrupted while waiting for lock '" + LogSafe.text(lockId) + "'",
				new InterruptedException());
	}

	/**
	 * What to throw for a failed store command: the interrupt that made the client stop
	 * waiting, if that was it (the flag restored, the failure suppressed), else the
	 * failure itself.
	 * @param lockId the lock the command was for
	 * @param failure what the store's client threw or reported
	 * @return the exception to throw
	 */
	static RuntimeException interruptOr(String lockId, RuntimeException failure) {
		if (Thread.currentThread().isInterrupted() || isCause(failure)) {
			LockNotAcquiredException interrupted = restoreFlagAndFail(lockId);
			interrupted.addSuppressed(failure);
			return interrupted;
		}
		return failure;
	}

}
