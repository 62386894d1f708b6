package io.github.distlock.redis;

import java.util.Set;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;

/**
 * Which failures of a Redis command leave its outcome unknown (the store replies
 * {@link io.github.distlock.store.Unknown}) and which are mistakes to throw.
 */
final class RedisFailures {

	/** Error codes of a Redis that cannot write for now (restarting, failing over, busy, full). */
	private static final Set<String> CANNOT_WRITE_FOR_NOW = Set.of("LOADING", "BUSY", "READONLY", "MASTERDOWN",
			"TRYAGAIN", "CLUSTERDOWN", "OOM");

	private RedisFailures() {
	}

	/**
	 * Whether the command may or may not have been applied: Redis was unreachable or slow, cannot
	 * write for now, or the client stopped waiting for the reply because the calling thread was
	 * interrupted. Any other error reply (e.g. an ACL's {@code NOPERM}) is a mistake.
	 * @param failure what the command threw
	 * @return whether the outcome is unknown
	 */
	static boolean leavesOutcomeUnknown(RuntimeException failure) {
		if (Thread.currentThread().isInterrupted() || causedByInterrupt(failure)) {
			return true;
		}
		if (failure instanceof DataAccessResourceFailureException || failure instanceof TransientDataAccessException) {
			return true;
		}
		// An error reply starts with its error code, e.g. "LOADING Redis is loading the dataset in memory".
		String message = String.valueOf(NestedExceptionUtils.getMostSpecificCause(failure).getMessage());
		int end = message.indexOf(' ');
		return CANNOT_WRITE_FOR_NOW.contains((end > 0) ? message.substring(0, end) : message);
	}

	private static boolean causedByInterrupt(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InterruptedException) {
				return true;
			}
		}
		return false;
	}

}
