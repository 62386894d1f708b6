package io.github.distlock.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockLostException;
import io.github.distlock.support.LogSafe;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Unknown;
import org.jspecify.annotations.Nullable;

/**
 * One lock held by an acquisition of the {@link ReactiveLockEngine}: owned by that
 * acquisition (its owner token), not by a thread, and given back by {@link #release} from
 * any thread.
 * <p>
 * As a {@link HeldLock}, its local deadline counts from before the command that set the
 * lease was sent, so it never ends later than the lease in the store; and the commands
 * that set the lease (renewal, {@code extend}, the expiry of a release with a minimum
 * hold time) run one after the other ({@link #leaseCommands}), so that an older, longer
 * lease never overwrites a newer, shorter one. An auto-renewed lease is renewed every
 * third of it; a renewal whose outcome is not known is tried again sooner, until the
 * lease runs out. A renewal that finds the lock gone or taken marks it lost: the loss is
 * counted and reported, and its {@link #release} fails with {@link LockLostException}.
 */
final class AsyncHold {

	private enum State {

		HELD, RELEASED, LOST

	}

	/** The shortest delay between two renewals whose outcome was not known. */
	private static final long MIN_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	final AsyncEngine engine;

	final String lockId;

	final String key;

	final String owner;

	final long fencingToken;

	final boolean autoRenewed;

	final long acquiredAtNanos;

	private volatile long leaseNanos;

	private volatile long deadlineNanos;

	private final AtomicReference<State> state = new AtomicReference<>(State.HELD);

	private volatile @Nullable String lostReason;

	private volatile TaskPool.@Nullable Scheduled renewal;

	/** The last command setting the lease; the next one is sent when it completed. */
	private CompletableFuture<?> leaseCommands = CompletableFuture.completedFuture(null);

	AsyncHold(AsyncEngine engine, String lockId, String key, String owner, long fencingToken, long leaseNanos,
			boolean autoRenewed, long acquiredAtNanos, long deadlineNanos) {
		this.engine = engine;
		this.lockId = lockId;
		this.key = key;
		this.owner = owner;
		this.fencingToken = fencingToken;
		this.leaseNanos = leaseNanos;
		this.autoRenewed = autoRenewed;
		this.acquiredAtNanos = acquiredAtNanos;
		this.deadlineNanos = deadlineNanos;
	}

	/** Starts the renewal of an auto-renewed lease: first when a third of it passed. */
	void start() {
		if (this.autoRenewed) {
			scheduleRenewal(this.deadlineNanos - this.engine.runtime.nanoTime() - 2 * interval());
		}
	}

	boolean isHeld() {
		return this.state.get() == State.HELD && this.engine.runtime.nanoTime() - this.deadlineNanos < 0;
	}

	/** Whether it is still held and not yet released (its lease may have run out). */
	boolean isActive() {
		return this.state.get() == State.HELD;
	}

	private long interval() {
		return this.leaseNanos / 3;
	}

	private void scheduleRenewal(long delayNanos) {
		if (this.state.get() != State.HELD) {
			return;
		}
		this.renewal = this.engine.timer.schedule(this::renew, Math.max(0, delayNanos));
		if (this.state.get() != State.HELD) {
			cancelRenewal();
		}
	}

	private void renew() {
		if (this.state.get() != State.HELD) {
			return;
		}
		if (this.engine.runtime.nanoTime() - this.deadlineNanos >= 0) {
			lost("lease expired before it was renewed");
			return;
		}
		long lease = this.leaseNanos;
		resetLease(lease).whenComplete((reply, failure) -> {
			if (reply instanceof Extended) {
				scheduleRenewal(interval());
			}
			else if (reply instanceof NotOwned) {
				lost("the lock was gone or held by another owner when its lease was renewed");
			}
			else {
				// Unknown, or a failure: again, sooner, until the lease runs out.
				long remaining = this.deadlineNanos - this.engine.runtime.nanoTime();
				scheduleRenewal(Math.max(MIN_RETRY_NANOS, Math.min(interval(), remaining / 3)));
			}
		});
	}

	/**
	 * Resets the lease to {@code leaseNanos}, after the lease command in flight, and
	 * applies the reply to the local deadline.
	 */
	private CompletionStage<ExtendReply> resetLease(long leaseNanos) {
		long leaseMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(leaseNanos));
		CompletableFuture<ExtendReply> reply;
		synchronized (this) {
			reply = this.leaseCommands.handle((ignored, failure) -> null).thenCompose((ignored) -> {
				long sentAt = this.engine.runtime.nanoTime();
				return this.engine.store.extend(this.key, this.owner, leaseMillis).thenApply((answer) -> {
					applyLease(answer, sentAt, leaseNanos);
					return answer;
				});
			});
			this.leaseCommands = reply;
		}
		return reply;
	}

	private void applyLease(ExtendReply reply, long sentAt, long leaseNanos) {
		long deadline = sentAt + leaseNanos;
		if (reply instanceof Extended) {
			this.deadlineNanos = deadline;
		}
		else if (reply instanceof Unknown && deadline - this.deadlineNanos < 0) {
			// It may still be applied: the lease ends no later than it would set.
			this.deadlineNanos = deadline;
		}
	}

	/**
	 * Resets the lease to {@code leaseNanos} if still held; an auto-renewed lease is
	 * renewed with it from now on.
	 * @return whether the store reset it
	 */
	CompletionStage<Boolean> extend(long leaseNanos) {
		if (!isHeld()) {
			return CompletableFuture.completedFuture(false);
		}
		this.leaseNanos = leaseNanos;
		cancelRenewal();
		return resetLease(leaseNanos).thenApply((reply) -> {
			if (reply instanceof NotOwned) {
				lost("the lock was gone or held by another owner when its lease was extended");
			}
			if (this.autoRenewed) {
				scheduleRenewal(interval());
			}
			return reply instanceof Extended;
		});
	}

	/**
	 * Gives the lock back, owner-checked: at once, or, when it has been held for less
	 * than {@code minHoldNanos}, by letting it expire when that time is reached.
	 * Idempotent.
	 * @return completes when the store answered; fails with {@link LockLostException}
	 * when the lock had been lost before
	 */
	CompletionStage<Void> release(long minHoldNanos) {
		if (!this.state.compareAndSet(State.HELD, State.RELEASED)) {
			return (this.state.get() == State.LOST) ? CompletableFuture.failedFuture(lostException())
					: CompletableFuture.completedFuture(null);
		}
		cancelRenewal();
		this.engine.holds.remove(this);
		long keepNanos = this.acquiredAtNanos + minHoldNanos - this.engine.runtime.nanoTime();
		if (keepNanos > 0) {
			return resetLease(keepNanos).thenApply((reply) -> released(reply instanceof NotOwned));
		}
		return this.engine.releaser.release(this.key, this.owner)
			.thenApply((ReleaseReply reply) -> released(reply instanceof NotOwned));
	}

	private @Nullable Void released(boolean notOwned) {
		if (notOwned) {
			this.lostReason = "the lock was gone or held by another owner when it was released";
			this.engine.lost(this, this.lostReason);
			throw lostException();
		}
		return null;
	}

	/** For shutdowns and discarded handles: releases, reporting nothing. */
	void releaseQuietly() {
		release(0).exceptionally((failure) -> null);
	}

	/** The renewal (or the shutdown) found the lock lost: counted and reported once. */
	void lost(String reason) {
		this.lostReason = reason;
		if (this.state.compareAndSet(State.HELD, State.LOST)) {
			cancelRenewal();
			this.engine.holds.remove(this);
			this.engine.lost(this, reason);
		}
	}

	LockLostException lostException() {
		String reason = (this.lostReason != null) ? this.lostReason : "lease expired";
		return new LockLostException(this.lockId, "Lock '" + LogSafe.text(this.lockId) + "' (fencing token "
				+ this.fencingToken + ") was lost before it was released: " + reason);
	}

	private void cancelRenewal() {
		TaskPool.Scheduled scheduled = this.renewal;
		if (scheduled != null) {
			scheduled.cancel();
		}
	}

}
