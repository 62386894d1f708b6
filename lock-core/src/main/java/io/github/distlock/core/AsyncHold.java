package io.github.distlock.core;

import io.github.distlock.runtime.TaskPool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockLostException;
import io.github.distlock.support.LogSafe;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LeaseReset;
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
 * third of it: a long lease by the engine's {@link RenewalSweep}, with the other holds
 * due, in one {@link io.github.distlock.store.AsyncLockStore#extendAll} call
 * ({@link AsyncRenewalBatch}), a short one on its own; a renewal whose outcome is not
 * known is tried again sooner, alone, until the lease runs out. A change of the lease
 * makes the renewals scheduled before it stale (a new renewal generation). A renewal that
 * finds the lock gone or taken marks it lost: the loss is counted and reported, and its
 * {@link #release} fails with {@link LockLostException}.
 */
final class AsyncHold implements RenewalSweep.Swept {

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

	/** The lease's renewal generation; the renewals of older ones are stale. */
	private volatile int renewalGeneration;

	/** When the {@link RenewalSweep} renews it, for which generation. */
	private final RenewalSweep.DueTime sweepDueTime = new RenewalSweep.DueTime();

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
			scheduleRenewal(this.deadlineNanos - this.engine.runtime.nanoTime() - 2 * interval(), false);
		}
	}

	boolean isHeld() {
		return this.state.get() == State.HELD && this.engine.runtime.nanoTime() - this.deadlineNanos < 0;
	}

	@Override
	public boolean isActive() {
		return this.state.get() == State.HELD;
	}

	private long interval() {
		return this.leaseNanos / 3;
	}

	/**
	 * The next renewal, in {@code delayNanos}: by the sweep when that is far enough away
	 * and not a {@code retry}, else on its own. Renewals scheduled before are stale.
	 */
	private void scheduleRenewal(long delayNanos, boolean retry) {
		if (this.state.get() != State.HELD) {
			return;
		}
		int generation = cancelRenewal();
		if (!retry && RenewalSweep.sweeps(delayNanos)) {
			this.engine.sweep.renewIn(this, delayNanos, generation);
		}
		else {
			renewal(this.engine.timer.schedule(() -> renew(generation), Math.max(0, delayNanos)), generation);
		}
	}

	private void renew(int generation) {
		if (this.state.get() != State.HELD || generation != this.renewalGeneration) {
			return;
		}
		if (this.engine.runtime.nanoTime() - this.deadlineNanos >= 0) {
			lost("lease expired before it was renewed");
			return;
		}
		resetLease(this.leaseNanos).whenComplete((reply, failure) -> renewed(reply, generation));
	}

	/**
	 * The outcome of a renewal for {@code generation}: the next renewal, or a retry,
	 * unless the lease changed meanwhile (that change schedules them).
	 */
	private void renewed(@Nullable ExtendReply reply, int generation) {
		if (reply instanceof NotOwned) {
			lost("the lock was gone or held by another owner when its lease was renewed");
		}
		else if (generation != this.renewalGeneration) {
			return;
		}
		else if (reply instanceof Extended) {
			scheduleRenewal(interval(), false);
		}
		else {
			// Unknown, or a failure: again, sooner, until the lease runs out.
			long remaining = this.deadlineNanos - this.engine.runtime.nanoTime();
			scheduleRenewal(Math.max(MIN_RETRY_NANOS, Math.min(interval(), remaining / 3)), true);
		}
	}

	/**
	 * For {@link AsyncRenewalBatch}: takes part in a batch with the lease reset that
	 * {@code reply} completes, when still to be renewed for {@code generation} and no
	 * other lease command is in flight (else it is renewed on its own, after that one).
	 * @return its lease reset, or {@code null} when it is not part of the batch
	 */
	@Nullable LeaseReset joinBatch(int generation, CompletableFuture<ExtendReply> reply) {
		synchronized (this) {
			if (this.state.get() != State.HELD || generation != this.renewalGeneration) {
				return null;
			}
			if (this.leaseCommands.isDone() && isHeld()) {
				this.leaseCommands = reply;
				return new LeaseReset(this.key, this.owner, leaseMillis(this.leaseNanos));
			}
		}
		renew(generation);
		return null;
	}

	/**
	 * For {@link AsyncRenewalBatch}: the batch sent at {@code sentAt} answered this
	 * hold's lease reset of {@code leaseMillis}.
	 */
	void answeredInBatch(ExtendReply reply, long sentAt, long leaseMillis, int generation,
			CompletableFuture<ExtendReply> leaseCommand) {
		applyLease(reply, sentAt, TimeUnit.MILLISECONDS.toNanos(leaseMillis));
		leaseCommand.complete(reply);
		renewed(reply, generation);
	}

	private static long leaseMillis(long leaseNanos) {
		return Math.max(1, TimeUnit.NANOSECONDS.toMillis(leaseNanos));
	}

	/**
	 * Resets the lease to {@code leaseNanos}, after the lease command in flight, and
	 * applies the reply to the local deadline.
	 */
	private CompletionStage<ExtendReply> resetLease(long leaseNanos) {
		long leaseMillis = leaseMillis(leaseNanos);
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
		int generation = cancelRenewal();
		return resetLease(leaseNanos).handle((reply, failure) -> {
			ExtendReply answer = (failure != null) ? Unknown.of(failure) : reply;
			if (answer instanceof NotOwned) {
				lost("the lock was gone or held by another owner when its lease was extended");
			}
			else if (this.autoRenewed) {
				// As after a renewal: unanswered, the old deadline still holds, so the
				// next renewal comes soon, not a third of the new lease later.
				renewed(answer, generation);
			}
			if (answer instanceof Unknown unknown) {
				throw unknown.cause();
			}
			return answer instanceof Extended;
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

	/**
	 * Makes the renewals scheduled so far stale, and cancels the next one.
	 * @return the new renewal generation
	 */
	private synchronized int cancelRenewal() {
		this.sweepDueTime.clear();
		TaskPool.Scheduled scheduled = this.renewal;
		if (scheduled != null) {
			scheduled.cancel();
		}
		return ++this.renewalGeneration;
	}

	@Override
	public synchronized void renewal(TaskPool.Scheduled renewal, int generation) {
		if (generation != this.renewalGeneration || this.state.get() != State.HELD) {
			renewal.cancel();
		}
		else {
			this.renewal = renewal;
		}
	}

	@Override
	public synchronized boolean sweepDue(long dueNanos, int generation) {
		return this.sweepDueTime.set(dueNanos, generation);
	}

	@Override
	public synchronized int claimSweepRenewal(long horizonNanos) {
		return this.sweepDueTime.claim(horizonNanos);
	}

	@Override
	public synchronized boolean sweepRenewalPending() {
		return this.sweepDueTime.pending();
	}

}
