package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.support.DurationText;
import io.github.distlock.support.LogSafe;
import org.jspecify.annotations.Nullable;

/**
 * The owner token of one thread's acquisition while the store has not answered its
 * acquire: the command may have been applied, so the next attempt sends the same token
 * (the store answers a lock held by that token as acquired, its lease reset to at least
 * the one asked for, so the lease counts from the answered attempt) instead of a new one
 * that could leave the first write behind, unowned. An answer settles it; a token still
 * unanswered when the thread gives up is released (owner-checked) by the acquirer.
 * <p>
 * Attempts after an unanswered one are spaced by a jittered, doubling back-off, so a
 * store that fails at once (a refused connection) is not asked in a loop.
 */
final class UnansweredAcquire {

	private static final long FIRST_BACK_OFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private static final long MAX_BACK_OFF_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final EngineRuntime runtime;

	private @Nullable String owner;

	private @Nullable Throwable lastFailure;

	private int failures;

	private long nextAttemptAt;

	UnansweredAcquire(EngineRuntime runtime) {
		this.runtime = runtime;
	}

	/** The token of the next attempt: the unanswered one, or a fresh one. */
	String nextOwner() {
		return (this.owner != null) ? this.owner : this.runtime.newOwnerToken();
	}

	/**
	 * The store did not answer the acquire of {@code owner}.
	 * @param failure what the store reported
	 */
	void unanswered(String owner, Throwable failure) {
		if (!owner.equals(this.owner)) {
			this.owner = owner;
			this.failures = 0;
		}
		this.lastFailure = failure;
		this.failures++;
		long bound = Math.min(MAX_BACK_OFF_NANOS, FIRST_BACK_OFF_NANOS << Math.min(this.failures - 1, 20));
		this.nextAttemptAt = this.runtime.nanoTime() + bound / 2 + this.runtime.jitter(bound / 2);
	}

	/**
	 * The store answered (or the token is given up): the next attempt gets a fresh token.
	 * @return the token that was unanswered until now, or {@code null}
	 */
	@Nullable String settle() {
		String unanswered = this.owner;
		this.owner = null;
		return unanswered;
	}

	/** Whether the last attempt of this acquisition went unanswered. */
	boolean isPending() {
		return this.owner != null;
	}

	/**
	 * How long to hold back before the next attempt: 0 unless the last one went
	 * unanswered.
	 */
	long backOffNanos() {
		return isPending() ? Math.max(0, this.nextAttemptAt - this.runtime.nanoTime()) : 0;
	}

	/**
	 * Ends an acquisition whose wait time passed: with a failure when its last attempt
	 * went unanswered (the lock may be free, nobody could tell), else not at all (the
	 * lock is held by others).
	 * @param lockId the lock id
	 * @param waitTime the wait time that passed
	 * @throws LockNotAcquiredException caused by the store's last failure, when the last
	 * attempt went unanswered
	 */
	void throwIfPending(String lockId, Duration waitTime) {
		if (isPending()) {
			throw new LockNotAcquiredException(lockId,
					"Lock '" + LogSafe.text(lockId) + "' was not acquired within " + DurationText.of(waitTime)
							+ ": the lock store did not answer (" + this.failures
							+ " unanswered attempts in a row; the cause is the last failure)",
					this.lastFailure);
		}
	}

}
