package io.github.distlock.redis;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;

/**
 * Tells a failed lock command whose outcome is unknown (Redis unreachable, slow, or
 * unable to write for now: the command may or may not have been applied, and the lease
 * bounds the damage) from a mistake that must reach the caller (an ACL's {@code NOPERM},
 * a script error, a misconfiguration).
 */
final class RedisFailures {

	/**
	 * Error codes of a Redis that cannot write for now: loading its data, busy with a
	 * script, a replica or a master without replicas, failing over, a cluster slot
	 * moving, out of memory; or that stopped waiting for its replicas ({@code WAIT})
	 * because it became a replica meanwhile ({@code UNBLOCKED}); or a cluster node that
	 * no longer (or not yet) serves the key's slot ({@code MOVED}, {@code ASK}): the
	 * command did not run there, and a later attempt finds the slot's master, as a
	 * replica-acknowledged write on a node connection may not at once during a failover.
	 */
	private static final Set<String> CANNOT_WRITE_FOR_NOW = Set.of("LOADING", "BUSY", "READONLY", "MASTERDOWN",
			"TRYAGAIN", "CLUSTERDOWN", "OOM", "UNBLOCKED", "MOVED", "ASK");

	/**
	 * How Redis before 7 reports the error of a command that a script called, when Redis
	 * refused the command itself (read-only replica, out of memory, too few replicas, a
	 * failing disk): the code comes after the script's name, the line of the call twice
	 * and a dash, e.g. (Redis 6.2) <code>ERR Error running script (call to
	 * f_&lt;sha1&gt;): @user_script:35: @user_script: 35: -READONLY You can't write
	 * against a read only replica.</code> Redis 7 puts the code first and the script last
	 * ({@code READONLY You can't write against a read only replica. script:
	 * <sha1>, on @user_script:35.}), as any other error reply. Everything up to the dash
	 * is Redis's own text (a script's name is the SHA-1 of its source, its lines are
	 * numbers), so nothing a caller passes can put a code there.
	 */
	private static final Pattern SCRIPT_ERROR_BEFORE_REDIS_7 = Pattern
		.compile("ERR Error running script \\(call to f_[0-9a-f]{40}\\): @user_script:\\d+: "
				+ "(?:@user_script: \\d+: )?-([A-Z]+)(?: |$)");

	private RedisFailures() {
	}

	/**
	 * Whether the outcome of the command that failed with {@code failure} is unknown:
	 * Redis could not be reached, did not answer in time, or cannot write for now; or the
	 * calling thread was interrupted (the client stopped waiting for the reply, while the
	 * command may still be applied). The caller checks the interrupt flag itself.
	 * @param failure what the Redis client threw
	 * @return {@code true} if the command may or may not have been applied
	 */
	static boolean outcomeUnknown(RuntimeException failure) {
		return unreachableOrCannotWrite(failure) || interrupted(failure);
	}

	/**
	 * Whether {@code failure} is Redis being unreachable, slow or temporarily unable to
	 * write.
	 */
	static boolean unreachableOrCannotWrite(RuntimeException failure) {
		if (failure instanceof DataAccessResourceFailureException || failure instanceof TransientDataAccessException) {
			return true;
		}
		String reply = String.valueOf(NestedExceptionUtils.getMostSpecificCause(failure).getMessage());
		return CANNOT_WRITE_FOR_NOW.contains(errorCode(reply));
	}

	/**
	 * The error code of an error reply: its first word, e.g. {@code LOADING} of "LOADING
	 * Redis is loading the dataset in memory", or, for the error of a command that a
	 * script called on Redis before 7, that command's code (see
	 * {@link #SCRIPT_ERROR_BEFORE_REDIS_7}).
	 */
	static String errorCode(String reply) {
		Matcher script = SCRIPT_ERROR_BEFORE_REDIS_7.matcher(reply);
		if (script.lookingAt()) {
			return script.group(1);
		}
		int end = reply.indexOf(' ');
		return (end > 0) ? reply.substring(0, end) : reply;
	}

	/**
	 * Whether the calling thread is interrupted or {@code failure} was caused by an
	 * interrupt: the exception translation does not always keep the flag.
	 */
	static boolean interrupted(Throwable failure) {
		if (Thread.currentThread().isInterrupted()) {
			return true;
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InterruptedException) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The failure with Redis's reply, which Spring Data Redis wraps as "Error in
	 * execution", for a log line.
	 */
	static String withReply(RuntimeException failure) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
		return (cause != failure) ? failure + " (" + cause.getMessage() + ")" : failure.toString();
	}

}
