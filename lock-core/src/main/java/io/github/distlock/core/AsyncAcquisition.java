package io.github.distlock.core;

import io.github.distlock.runtime.TaskPool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.NotReplicated;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition of the {@link ReactiveLockEngine}, its owner: attempts, and waits
 * between them without a thread, until it holds the lock ({@link #result}: the hold), its
 * wait time passed ({@code null}), it failed or it was cancelled. One attempt is in
 * flight at a time; between them it waits for an announcement ({@link AsyncWaiters}) or a
 * jittered re-check ({@link Rechecks}), never past its deadline, when it tries once more.
 * Its token is the same for all attempts where the store queues (the first does not
 * queue), and fresh after each refusal where it does not. An acquisition that ends
 * without the lock releases its token, owner-checked, after the attempt in flight.
 */
final class AsyncAcquisition {

	private enum State {

		WAITING, HELD, ENDED

	}

	final AsyncEngine engine;

	final String lockId;

	final String key;

	/** The owner token; a new one after an acquisition undone (see {@link #won}). */
	volatile String owner;

	private final long leaseNanos;

	private final boolean autoRenewed;

	private final long startedAtNanos;

	private final long deadlineNanos;

	final CompletableFuture<@Nullable AsyncHold> result = new CompletableFuture<>();

	private State state = State.WAITING;

	/** The token of the attempt in flight, and whether to release it after its reply. */
	private @Nullable String inFlightOwner;

	private boolean releaseAfterReply;

	private boolean wakePending;

	private TaskPool.@Nullable Scheduled recheck;

	private final AsyncRechecks rechecks;

	/** When a grant to the owner can have been made at the earliest. */
	private GrantWindow grants;

	/** Whether the store queues refused owners; whether an attempt was sent. */
	private final boolean queues;

	private boolean attempted;

	AsyncAcquisition(AsyncEngine engine, String lockId, long waitNanos, long leaseNanos, boolean autoRenewed) {
		this.engine = engine;
		this.lockId = lockId;
		this.key = engine.key(lockId);
		this.owner = engine.runtime.newOwnerToken();
		this.leaseNanos = leaseNanos;
		this.autoRenewed = autoRenewed;
		this.startedAtNanos = engine.runtime.nanoTime();
		this.deadlineNanos = this.startedAtNanos + waitNanos;
		this.grants = new GrantWindow(engine.grantLeaseNanos(leaseNanos));
		this.queues = engine.grantLeaseNanos(leaseNanos) > 0;
		this.rechecks = new AsyncRechecks(engine, this.key, this.deadlineNanos);
	}

	/**
	 * The first attempt. An acquisition that may wait listens for announcements from
	 * before it, so that none is missed.
	 */
	void start() {
		if (this.deadlineNanos != this.startedAtNanos) {
			this.engine.waiters.add(this);
		}
		attempt();
	}

	private void attempt() {
		boolean first;
		synchronized (this) {
			if (this.state != State.WAITING) {
				return;
			}
			if (this.inFlightOwner != null) {
				this.wakePending = true;
				return;
			}
			this.inFlightOwner = this.owner;
			first = !this.attempted;
			this.attempted = true;
			this.wakePending = false;
			cancelRecheck();
		}
		String owner = this.owner;
		long sentAt = this.engine.runtime.nanoTime();
		long left = this.deadlineNanos - sentAt;
		// The first does not queue: the plain acquire, as LockEngine's first attempt.
		long waitMillis = (left > 0 && first) ? 0 : (left > 0) ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)) : 0;
		long leaseMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(this.leaseNanos));
		CompletionStage<AcquireReply> reply;
		try {
			reply = this.engine.store.acquire(this.key, owner, leaseMillis, waitMillis);
		}
		catch (RuntimeException ex) {
			reply = CompletableFuture.failedFuture(ex);
		}
		reply.whenComplete((answer, failure) -> answered(owner, answer, failure, sentAt, waitMillis > 0));
	}

	private void answered(String owner, @Nullable AcquireReply reply, @Nullable Throwable failure, long sentAt,
			boolean queued) {
		boolean givenBack;
		synchronized (this) {
			this.inFlightOwner = null;
			givenBack = this.releaseAfterReply;
			this.releaseAfterReply = false;
		}
		if (givenBack) {
			// The token was given back while this attempt was in flight: released now,
			// after it, whatever it did.
			this.engine.releaseQuietly(this.key, owner);
			return;
		}
		if (reply instanceof Acquired acquired) {
			won(owner, acquired.fencingToken(), sentAt + this.leaseNanos);
			return;
		}
		if (reply == null || reply instanceof NotReplicated) {
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			end((reply instanceof NotReplicated notReplicated)
					? AcquireAttempts.notReplicated(this.lockId, notReplicated) : cause);
			return;
		}
		long now = this.engine.runtime.nanoTime();
		synchronized (this) {
			if (owner.equals(this.owner)) {
				if (!this.queues && reply instanceof HeldByOther) {
					// A store that does not queue may release a refused token (the quorum
					// does, on the nodes of a split vote): the next attempt brings a new
					// one.
					this.owner = this.engine.runtime.newOwnerToken();
				}
				else if (reply instanceof HeldByOther) {
					this.grants.refused(sentAt, now);
				}
				else {
					this.grants.unanswered(sentAt);
				}
			}
		}
		if (now - this.deadlineNanos >= 0) {
			end(null);
			return;
		}
		long delay = this.rechecks.delayNanos(reply, queued, this.queues, now);
		synchronized (this) {
			if (this.state != State.WAITING) {
				return;
			}
			if (!this.wakePending && delay > 0) {
				this.recheck = this.engine.timer.schedule(this::attempt, delay);
				return;
			}
		}
		attempt();
	}

	/** The store announced a release of the key, or a grant to this owner to claim. */
	void wake() {
		attempt();
	}

	/**
	 * The store granted the lock to {@code owner} with {@code fencingToken}: held, with
	 * the deadline the {@link GrantWindow} allows, if that leaves room for a renewal;
	 * otherwise claimed with the next attempt (which resets the lease).
	 */
	void granted(String owner, long fencingToken) {
		long now = this.engine.runtime.nanoTime();
		long deadline;
		synchronized (this) {
			if (!this.grants.holdsLongEnough(now)) {
				deadline = 0;
			}
			else {
				deadline = this.grants.deadlineNanos(now);
			}
		}
		if (deadline == 0) {
			attempt();
		}
		else {
			won(owner, fencingToken, deadline);
		}
	}

	/**
	 * {@code owner} acquired the lock, its lease ending at {@code deadlineNanos} at the
	 * latest: the acquisition holds it, unless the acquisition ended meanwhile or that
	 * token was undone (then it is given back), or the deadline has passed already (the
	 * reply came after the lease: nobody may count on it; undone, and tried again while
	 * time is left, with a new owner token, as a token released is never acquired with
	 * again).
	 */
	private void won(String owner, long fencingToken, long deadlineNanos) {
		boolean expired = this.engine.runtime.nanoTime() - deadlineNanos >= 0;
		State before;
		boolean current;
		synchronized (this) {
			before = this.state;
			current = owner.equals(this.owner);
			if (current && before == State.WAITING) {
				if (expired) {
					this.owner = this.engine.runtime.newOwnerToken();
					this.grants = new GrantWindow(this.engine.grantLeaseNanos(this.leaseNanos));
				}
				else {
					this.state = State.HELD;
					cancelRecheck();
				}
			}
		}
		if (!current || before == State.ENDED || (before == State.WAITING && expired)) {
			giveBack(owner);
			if (current && before == State.WAITING) {
				if (this.engine.runtime.nanoTime() - this.deadlineNanos >= 0) {
					end(null);
				}
				else {
					attempt();
				}
			}
			return;
		}
		if (before == State.HELD) {
			// A reply confirming a grant already taken: the same ownership.
			return;
		}
		this.engine.waiters.remove(this);
		AsyncHold hold = new AsyncHold(this.engine, this.lockId, this.key, owner, fencingToken, this.leaseNanos,
				this.autoRenewed, this.engine.runtime.nanoTime(), deadlineNanos);
		this.engine.holds.add(hold);
		hold.start();
		if (this.engine.isClosed()) {
			hold.lost("the lock service shut down");
			giveBack(owner);
		}
		this.result.complete(hold);
	}

	/**
	 * Ends the acquisition without the lock: the wait time passed ({@code failure}
	 * {@code null}), or it failed.
	 */
	void end(@Nullable Throwable failure) {
		if (!endWaiting()) {
			return;
		}
		if (failure != null) {
			this.result.completeExceptionally(failure);
		}
		else {
			this.result.complete(null);
		}
	}

	/** Its subscriber went away: it waits no more and leaves the store's queue. */
	void cancel() {
		end(null);
	}

	private boolean endWaiting() {
		synchronized (this) {
			if (this.state != State.WAITING) {
				return false;
			}
			this.state = State.ENDED;
			cancelRecheck();
		}
		this.engine.waiters.remove(this);
		giveBack(this.owner);
		return true;
	}

	/**
	 * Releases {@code owner}, owner-checked: after the reply of its attempt in flight, if
	 * one is, so that the release is never applied before that attempt (a store whose
	 * blocking calls run on several threads could reorder them, and an attempt applied
	 * after the release would queue a token nobody waits for any more).
	 */
	private void giveBack(String owner) {
		synchronized (this) {
			if (owner.equals(this.inFlightOwner)) {
				this.releaseAfterReply = true;
				return;
			}
		}
		this.engine.releaseQuietly(this.key, owner);
	}

	private void cancelRecheck() {
		TaskPool.Scheduled scheduled = this.recheck;
		this.recheck = null;
		if (scheduled != null) {
			scheduled.cancel();
		}
	}

}
