package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Ends the outermost hold of a lock: keeps it for its minimum hold time, hands it to the
 * next local waiter without freeing it in the store ({@link LocalHandOver}), or releases
 * it, each owner-checked and carried out although the holder gets interrupted. When the
 * store's answer is unknown the lock expires with its lease, which is logged, not thrown:
 * the protected work is done and must not look failed.
 */
final class LockReleaser {

	private static final Log logger = LogFactory.getLog(LockReleaser.class);

	private final LockStore store;

	private final LockRenewer renewer;

	private final LockLosses losses;

	private final DetachedCommands detached;

	private final BooleanSupplier stopped;

	private final LocalHandOver localHandOver;

	private final EngineRuntime runtime;

	LockReleaser(LockStore store, EngineRuntime runtime, LockRenewer renewer, LockLosses losses,
			DetachedCommands detached, long leaseNanos, BooleanSupplier stopped, Runnable notReplicated) {
		this.store = store;
		this.renewer = renewer;
		this.losses = losses;
		this.detached = detached;
		this.stopped = stopped;
		this.localHandOver = new LocalHandOver(this, store, runtime, losses, leaseNanos, notReplicated);
		this.runtime = runtime;
	}

	/**
	 * Makes {@code held}, just acquired from the store (by an attempt or a grant), the
	 * entry's holder and {@linkplain #startHolding starts holding} it.
	 * @param held the new hold
	 * @throws LockNotAcquiredException when the service shut down meanwhile (the lock was
	 * undone)
	 */
	void holdAcquired(HeldLock held) {
		held.entry.acquiredFromStore(held);
		if (!startHolding(held)) {
			throw new LockNotAcquiredException(held.entry.lockId, "The LockService shut down while lock '"
					+ LogSafe.text(held.entry.lockId) + "' was being acquired");
		}
	}

	/**
	 * Starts renewing a lock just acquired, granted or handed over, the entry already
	 * naming it as holder, unless the service shut down meanwhile:
	 * {@link LockEngine#destroy()} may have looked at the entry before, so the lock is
	 * released here (owner-checked) and not granted.
	 * @return {@code false} if the lock was undone because the service shut down
	 */
	boolean startHolding(HeldLock held) {
		RuntimeException failure = null;
		if (held.autoRenewed) {
			try {
				this.renewer.start(held);
			}
			catch (RuntimeException ex) {
				// A RejectedExecutionException from a renewer closed by destroy().
				failure = ex;
			}
		}
		// Read after the holder was set, and destroy() sets closed before it reads the
		// holders:
		// if this sees the service open, destroy() sees this lock and releases it.
		if (failure == null && !this.stopped.getAsBoolean()) {
			return true;
		}
		if (held.markLost("released when the LockService shut down")) {
			releaseQuietly(held.entry.key, held.ownerToken);
		}
		held.entry.holdClosed(held);
		held.entry.holderGone(held);
		if (failure != null && !this.stopped.getAsBoolean()) {
			throw failure;
		}
		return false;
	}

	/**
	 * Closes one hold of {@code held}; the outermost one releases the lock, then tells
	 * {@code observed} (with the failure, if any) and {@code leave} (the entry is no
	 * longer used by this thread), whatever happens.
	 */
	void release(HeldLock held, Duration minHoldTime, Consumer<@Nullable RuntimeException> observed, Runnable leave) {
		if (held.exitOne() > 0) {
			if (!held.isHeld()) {
				throw LockLosses.lostBeforeRelease(held, held.lostReason());
			}
			return;
		}
		// An interrupted holder's release must still reach the store.
		boolean interrupted = Thread.interrupted();
		RuntimeException failure = null;
		try {
			releaseOutermost(held, minHoldTime);
		}
		catch (RuntimeException ex) {
			failure = ex;
			throw ex;
		}
		finally {
			try {
				// Never throws today; the entry and the interrupt must survive it if it
				// ever does.
				observed.accept(failure);
			}
			finally {
				leave.run();
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}
	}

	/**
	 * Releases {@code held} for good (its outermost hold was closed).
	 * @throws io.github.distlock.LockLostException when the lock turns out lost
	 */
	void releaseOutermost(HeldLock held, Duration minHoldTime) {
		LockEntry entry = held.entry;
		boolean inLease = held.isHeld();
		// Lost meanwhile (renewal or shutdown): the hold stays lost, and that loss was
		// reported.
		boolean released = held.markReleased();
		boolean lossReported = !released;
		entry.holdClosed(held);
		String lostReason = (inLease && released) ? null : held.lostReason();
		if (lostReason != null) {
			// Remove our key if it is still ours; never anyone else's.
			releaseQuietly(entry.key, held.ownerToken);
			entry.holderGone(held);
			throw lossReported ? LockLosses.lostBeforeRelease(held, lostReason)
					: this.losses.lostAtRelease(held, lostReason);
		}
		long keepNanos = minHoldTime.toNanos() - (this.runtime.nanoTime() - held.acquiredAtNanos);
		if (keepNanos > 0) {
			keepForMinimumHold(held, keepMillis(keepNanos));
			return;
		}
		// A fair lock is never handed over locally: its release grants it to the first
		// waiter of any instance.
		Waiter next = held.fair ? null : entry.waiters.pickForHandOver();
		if (next != null) {
			this.localHandOver.handOver(held, next);
			return;
		}
		ReleaseReply reply;
		try {
			reply = despiteInterrupts(() -> this.store.release(entry.key, held.ownerToken), () -> {
				// Whether the interrupted release was applied is unknown: a repeat
				// finding nothing is no loss.
				ReleaseReply repeated = this.store.release(entry.key, held.ownerToken);
				return (repeated instanceof Unknown) ? repeated : Released.INSTANCE;
			});
		}
		finally {
			entry.holderGone(held);
		}
		if (reply instanceof Unknown unknown) {
			expiresWithItsLease(entry, unknown);
			return;
		}
		if (reply instanceof NotOwned) {
			throw this.losses.lostAtRelease(held, LockLosses.AT_RELEASE);
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Released lock '" + LogSafe.text(entry.lockId) + "'");
		}
	}

	/** The lock stays until its minimum hold time is over, then expires. */
	private void keepForMinimumHold(HeldLock held, long keepMillis) {
		LockEntry entry = held.entry;
		Supplier<Boolean> expire = () -> {
			ExtendReply reply = this.store.extend(entry.key, held.ownerToken, keepMillis);
			if (reply instanceof Unknown unknown) {
				// As thrown before the store SPI: the caller sees the failure, the lease
				// bounds the lock.
				throw unknown.cause();
			}
			return reply instanceof Extended;
		};
		boolean owned;
		// After a renewal in flight, never before: its longer lease would outlast the
		// minimum hold.
		held.lockLeaseUninterruptibly();
		try {
			owned = despiteInterrupts(expire, expire);
		}
		finally {
			held.unlockLease();
		}
		entry.holderGone(held);
		if (!owned) {
			throw this.losses.lostAtRelease(held, LockLosses.AT_RELEASE);
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Released lock '" + LogSafe.text(entry.lockId) + "'; it expires after its minimum hold time");
		}
	}

	static void expiresWithItsLease(LockEntry entry, Unknown unknown) {
		logger.warn("Could not release lock '" + LogSafe.text(entry.lockId) + "'; it expires with its lease: "
				+ withCause(unknown.cause()));
	}

	/**
	 * Runs a release-path command to its end although the calling thread gets
	 * interrupted. A store client may stop waiting for the reply of an interrupted thread
	 * (Lettuce does), while the command may still be applied; so after such a failure
	 * {@code repeat}, which must be safe whatever the first command did, runs on a thread
	 * nobody interrupts and is waited for uninterruptibly (interrupts can come faster
	 * than round trips). The caller's interrupt is kept.
	 */
	<T> T despiteInterrupts(Supplier<T> command, Supplier<T> repeat) {
		try {
			T reply = command.get();
			if (!(reply instanceof Unknown unknown) || !interruptedBy(unknown.cause())) {
				return reply;
			}
		}
		catch (RuntimeException ex) {
			if (!interruptedBy(ex)) {
				throw ex;
			}
		}
		try {
			return this.detached.call(repeat);
		}
		finally {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The flag is checked and the cause too: exception translation does not always keep
	 * the flag.
	 */
	private static boolean interruptedBy(RuntimeException failure) {
		return Thread.currentThread().isInterrupted() || Interrupts.isCause(failure);
	}

	/** Clean-up after an ambiguous command, off the caller's thread. */
	void releaseLater(String key, String owner) {
		this.detached.execute(() -> releaseQuietly(key, owner));
	}

	/**
	 * An owner-checked release the caller waits for, run on a detached thread (an
	 * interrupted caller's own command would be cut short) and waited for
	 * uninterruptibly: the withdrawal of an acquisition that ends queued, so that once
	 * {@code tryLock} returned or threw, the next release cannot grant the lock to its
	 * queue entry (held for nobody, for the lease asked for). One round trip on a path
	 * that gives up anyway; the command timeout at most when the store does not answer.
	 */
	void releaseAndWait(String key, String owner) {
		this.detached.call(() -> {
			releaseQuietly(key, owner);
			return null;
		});
	}

	/** An owner-checked release whose failure only the lease covers. */
	void releaseQuietly(String key, String owner) {
		try {
			if (this.store.release(key, owner) instanceof Unknown unknown) {
				logger.debug("Owner-checked clean-up of a lost lock failed; it expires with its lease",
						unknown.cause());
			}
		}
		catch (RuntimeException ex) {
			logger.debug("Owner-checked clean-up of a lost lock failed; it expires with its lease", ex);
		}
	}

	/**
	 * The failure with its most specific cause, e.g. the store's error reply a client
	 * wraps.
	 */
	private static String withCause(RuntimeException failure) {
		// The deepest cause, as Spring's NestedExceptionUtils finds it, without Spring:
		// the engine is to run without it (ArchitectureTests).
		Throwable root = failure;
		for (Throwable cause = failure.getCause(); cause != null && cause != root; cause = cause.getCause()) {
			root = cause;
		}
		return (root != failure) ? failure + " (" + root.getMessage() + ")" : failure.toString();
	}

	/**
	 * The rest of a minimum hold time in whole milliseconds, rounded up: the lock is
	 * never freed earlier than asked.
	 */
	static long keepMillis(long keepNanos) {
		return -Math.floorDiv(-keepNanos, 1_000_000L);
	}

	static long toMillis(long nanos) {
		return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos));
	}

}
