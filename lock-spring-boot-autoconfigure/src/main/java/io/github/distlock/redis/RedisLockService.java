package io.github.distlock.redis;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostEvent;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.LockService;
import io.github.distlock.OnLockFailure;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.observation.NamedLockService;
import io.github.distlock.support.LogSafe;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@link LockService} on Redis.
 * <p>
 * Acquire is one script: {@code SET NX PX} with a fresh 128-bit owner token plus the next fencing
 * token. Release, renewal and hand-over are owner-checked scripts, so a holder whose lease ran out
 * can never touch the next holder's lock. Waiting threads park and are woken by the release: by
 * the local holder directly (who may hand the lock over without freeing it in Redis), or by a
 * message on one shared pub/sub subscription; a bounded, jittered re-check covers lost messages
 * and holders that died. No {@code synchronized} is held around a Redis call.
 */
public class RedisLockService implements NamedLockService, ApplicationEventPublisherAware, SmartLifecycle,
		DisposableBean {

	/**
	 * Lifecycle phase in which an application context's shutdown releases the held locks: after
	 * the web server's graceful shutdown and the task executors (which finish the work holding
	 * locks), before the Redis connection factories stop (phase 0), which would make the release
	 * impossible.
	 */
	public static final int SHUTDOWN_PHASE = SmartLifecycle.DEFAULT_PHASE - 8192;

	private static final Log logger = LogFactory.getLog(RedisLockService.class);

	/** Fallback re-check of a waiter when release messages are subscribed. */
	private static final long SUBSCRIBED_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Re-check of a waiter when no release messages can be received. */
	private static final long UNSUBSCRIBED_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	/**
	 * Local hand-overs allowed in a row while a waiter of another instance is known to wait; then
	 * the lock is freed so that it gets its turn. Bounds cross-instance unfairness to a few
	 * critical sections.
	 */
	private static final int MAX_HAND_OVERS_WHILE_CONTENDED = 8;

	/** Lock id and owner of {@link #verifyScripts()}: owner tokens are hexadecimal, never this. */
	private static final String SCRIPT_PROBE_LOCK_ID = "distlock.script-probe";

	private static final String SCRIPT_PROBE_OWNER = "probe";

	/** Error codes of a Redis that cannot write for now (restarting, failing over, busy). */
	private static final Set<String> TRANSIENT_ERROR_CODES = Set.of("LOADING", "BUSY", "READONLY", "MASTERDOWN",
			"TRYAGAIN", "CLUSTERDOWN", "OOM");

	private final LockKeys keys;

	private final long leaseNanos;

	private final RedisLockCommands commands;

	private final OwnerTokens tokens = new OwnerTokens();

	private final ConcurrentHashMap<String, LockEntry> entries = new ConcurrentHashMap<>();

	private final LockRenewer renewer;

	private final DetachedCommands detached = new DetachedCommands();

	private final LockLostPublisher lockLostEvents = new LockLostPublisher();

	private final ReleaseSubscription releases;

	private final AtomicLong locksLost = new AtomicLong();

	private final AtomicLong renewalFailures = new AtomicLong();

	private volatile LockObserver observer = LockObserver.none();

	private volatile boolean closed;

	public RedisLockService(StringRedisTemplate redis, RedisLockSettings settings) {
		this.keys = new LockKeys(settings.keyPrefix());
		this.leaseNanos = settings.leaseTime().toNanos();
		this.commands = new RedisLockCommands(redis, this.keys.releaseChannel(),
				settings.fencingRetention().toMillis());
		this.renewer = new LockRenewer(this.commands, new LockRenewer.Outcomes() {

			@Override
			public void renewalFailed(HeldLock held, RuntimeException failure) {
				RedisLockService.this.renewalFailures.incrementAndGet();
			}

			@Override
			public void lost(HeldLock held, String reason) {
				lockLost(held, reason);
			}

		});
		this.releases = new ReleaseSubscription(redis.getRequiredConnectionFactory(), this.keys.releaseChannel(),
				this::releaseAnnounced);
	}

	@Override
	public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
		return tryLock(null, lockId, waitTime, leaseTime, OnLockFailure.THROW);
	}

	@Override
	public Optional<LockHandle> tryLock(@Nullable String lockName, String lockId, Duration waitTime,
			@Nullable Duration leaseTime, OnLockFailure onFailure) {
		checkArguments(lockId, waitTime, leaseTime);
		if (this.closed) {
			throw new IllegalStateException("The LockService has been shut down; lock '" + LogSafe.text(lockId)
					+ "' cannot be acquired");
		}
		if (Thread.interrupted()) {
			throw interrupted(lockId);
		}
		LockEntry entry = enter(this.keys.lockKey(lockId), lockId);
		HeldLock acquired = null;
		try {
			// Not only the holder: a lost hold this thread has yet to close must not be acquired anew.
			HeldLock current = entry.unreleasedHoldOf(Thread.currentThread());
			if (current != null) {
				return Optional.of(reenter(current));
			}
			acquired = this.observer.acquire(lockId, lockName, onFailure,
					() -> acquire(entry, waitTime, (leaseTime != null) ? leaseTime.toNanos() : 0));
			if (acquired != null) {
				acquired.name = lockName;
			}
			return (acquired != null) ? Optional.of(new RedisLockHandle(this, acquired)) : Optional.empty();
		}
		finally {
			if (acquired == null) {
				// Reentrant holds and failures: the outermost holder (if any) keeps the entry.
				leave(entry);
			}
		}
	}

	@Override
	public boolean isLocked(String lockId) {
		checkLockId(lockId);
		return this.commands.exists(this.keys.lockKey(lockId));
	}

	private RedisLockHandle reenter(HeldLock current) {
		if (!current.isHeld()) {
			throw new LockLostException(current.entry.lockId, "Lock '" + LogSafe.text(current.entry.lockId)
					+ "' was lost while this thread held it (" + current.lostReason() + "); it cannot be re-entered");
		}
		current.depth.incrementAndGet();
		return new RedisLockHandle(this, current);
	}

	private @Nullable HeldLock acquire(LockEntry entry, Duration waitTime, long fixedLeaseNanos) {
		long deadline = System.nanoTime() + saturatedNanos(waitTime);
		long holderTtlMillis = -1;
		if (entry.isFree()) {
			Attempt attempt = attempt(entry, fixedLeaseNanos);
			if (attempt.held != null) {
				return attempt.held;
			}
			holderTtlMillis = attempt.holderTtlMillis;
		}
		if (System.nanoTime() - deadline >= 0) {
			return null;
		}
		Waiter waiter = new Waiter(Thread.currentThread(), fixedLeaseNanos);
		entry.enqueue(waiter);
		boolean interrupted = false;
		try {
			// Subscribed before the next attempt, so a release after that attempt is never missed.
			boolean subscribed = this.releases.ensureActive(deadline);
			while (true) {
				if (waiter.state() == Waiter.State.GRANTED) {
					HeldLock granted = waiter.granted();
					if (interrupted) {
						// Interrupted while the lock was handed over: give it back, report the interrupt.
						// (tryLock leaves the entry for this thread; releaseOutermost does not.)
						granted.depth.set(0);
						releaseOutermost(granted, Duration.ZERO);
						throw interrupted(entry.lockId);
					}
					return granted;
				}
				if (!interrupted && !this.closed && entry.isHead(waiter) && !entry.hasLiveHolder()
						&& waiter.transition(Waiter.State.WAITING, Waiter.State.ATTEMPTING)) {
					Attempt attempt;
					try {
						attempt = attempt(entry, fixedLeaseNanos);
					}
					catch (Throwable ex) {
						// Straight from ATTEMPTING to CANCELLED: never WAITING again, so no releaser can
						// pick this thread for a hand-over while the failure propagates.
						entry.cancelAttempt(waiter);
						throw ex;
					}
					if (attempt.held != null) {
						// Never WAITING again, so no releaser can pick it for a hand-over meanwhile.
						waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.ACQUIRED);
						entry.dequeue(waiter);
						return attempt.held;
					}
					waiter.transition(Waiter.State.ATTEMPTING, Waiter.State.WAITING);
					holderTtlMillis = attempt.holderTtlMillis;
				}
				long now = System.nanoTime();
				if (interrupted || this.closed || now - deadline >= 0) {
					if (entry.cancel(waiter)) {
						if (interrupted) {
							throw interrupted(entry.lockId);
						}
						if (this.closed) {
							throw new LockNotAcquiredException(entry.lockId, "The LockService shut down while waiting for lock '"
									+ LogSafe.text(entry.lockId) + "'");
						}
						return null;
					}
					// A hand-over to this waiter is in flight; its outcome arrives within one round trip.
					waiter.park(TimeUnit.MILLISECONDS.toNanos(10));
					continue;
				}
				waiter.park(Math.min(deadline - now, recheckNanos(holderTtlMillis, subscribed)));
				holderTtlMillis = -1;
				if (Thread.interrupted()) {
					interrupted = true;
				}
				if (!subscribed) {
					subscribed = this.releases.ensureActive(System.nanoTime());
				}
			}
		}
		catch (Throwable ex) {
			abandon(entry, waiter, ex);
			throw ex;
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * A waiter leaves with an exception or error: it leaves the queue (the next one moves up), and
	 * a lock handed to it meanwhile is released again, so nothing is granted to a thread that left.
	 */
	private void abandon(LockEntry entry, Waiter waiter, Throwable failure) {
		boolean interrupted = Thread.interrupted();
		try {
			while (!entry.cancel(waiter) && !entry.cancelAttempt(waiter)) {
				Waiter.State state = waiter.state();
				if (state == Waiter.State.GRANTED) {
					HeldLock granted = waiter.granted();
					if (granted != null && entry.isUnreleased(granted)) {
						granted.depth.set(0);
						try {
							releaseOutermost(granted, Duration.ZERO);
						}
						catch (RuntimeException ex) {
							failure.addSuppressed(ex);
						}
					}
					return;
				}
				if (state != Waiter.State.GRANTING) {
					// Cancelled already, or acquired and then failed: nothing is queued or held for it.
					return;
				}
				// A hand-over to this waiter is in flight; its outcome arrives within one round trip.
				waiter.park(TimeUnit.MILLISECONDS.toNanos(10));
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * One acquire round trip. An acquire whose reply arrives after the lease would already have run
	 * out counts as not acquired and is undone.
	 */
	private Attempt attempt(LockEntry entry, long fixedLeaseNanos) {
		long lease = (fixedLeaseNanos > 0) ? fixedLeaseNanos : this.leaseNanos;
		String owner = this.tokens.next();
		long sentAt = System.nanoTime();
		long reply;
		try {
			reply = this.commands.acquire(entry.key, owner, toMillis(lease));
		}
		catch (Throwable ex) {
			// The command may still be applied after we gave up: remove it if so.
			releaseLater(entry.key, owner);
			if (ex instanceof RuntimeException && (Thread.currentThread().isInterrupted() || causedByInterrupt(ex))) {
				// Lettuce stopped waiting for the reply because the thread was interrupted.
				LockNotAcquiredException interrupted = interrupted(entry.lockId);
				interrupted.addSuppressed(ex);
				throw interrupted;
			}
			throw ex;
		}
		if (reply <= 0) {
			return new Attempt(null, -1 - reply);
		}
		if (System.nanoTime() - sentAt >= lease) {
			releaseLater(entry.key, owner);
			if (logger.isDebugEnabled()) {
				logger.debug("Acquired lock '" + LogSafe.text(entry.lockId) + "' only after its lease had run out; undone");
			}
			return new Attempt(null, 0);
		}
		HeldLock held = new HeldLock(entry, owner, reply, Thread.currentThread(), lease, fixedLeaseNanos == 0, sentAt);
		entry.acquiredFromRedis(held);
		if (!startHolding(held)) {
			throw new LockNotAcquiredException(entry.lockId, "The LockService shut down while lock '"
					+ LogSafe.text(entry.lockId) + "' was being acquired");
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Acquired lock '" + LogSafe.text(entry.lockId) + "', fencing token " + reply);
		}
		return new Attempt(held, -1);
	}

	/**
	 * Starts renewing a lock just acquired or handed over, the entry already naming it as holder,
	 * unless the service shut down meanwhile: {@link #destroy()} may have looked at the entry before,
	 * so the lock is released here (owner-checked) and not granted.
	 * @return {@code false} if the lock was undone because the service shut down
	 */
	private boolean startHolding(HeldLock held) {
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
		// Read after the holder was set, and destroy() sets closed before it reads the holders:
		// if this sees the service open, destroy() sees this lock and releases it.
		if (failure == null && !this.closed) {
			return true;
		}
		if (held.markLost("released when the LockService shut down")) {
			releaseQuietly(held.entry.key, held.ownerToken);
		}
		held.entry.holdClosed(held);
		held.entry.holderGone(held);
		if (failure != null && !this.closed) {
			throw failure;
		}
		return false;
	}

	/**
	 * Sets the lease of a held lock to {@code leaseTime} from now, in Redis and then locally, as one
	 * step with the watchdog's renewals (see {@link HeldLock}). An auto-renewed lock is renewed with
	 * {@code leaseTime} from then on, about every third of it.
	 */
	boolean extend(HeldLock held, Duration leaseTime) {
		Duration least = Duration.ofMillis(held.autoRenewed ? 3 : 1);
		if (leaseTime == null || leaseTime.compareTo(least) < 0) {
			throw new IllegalArgumentException("leaseTime to extend lock '" + LogSafe.text(held.entry.lockId)
					+ "' with must be at least " + least.toMillis() + "ms"
					+ (held.autoRenewed ? " for an auto-renewed lock (renewed every third of it)" : "") + ", but was "
					+ leaseTime);
		}
		// Whole milliseconds, as Redis gets them: the local lease must not be longer than Redis's.
		long leaseMillis = leaseTime.toMillis();
		long leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis);
		if (!held.isHeld() || !held.lockLease()) {
			return false;
		}
		try {
			if (!held.isHeld()) {
				return false;
			}
			long sentAt = System.nanoTime();
			boolean owned;
			try {
				owned = this.commands.expire(held.entry.key, held.ownerToken, leaseMillis);
			}
			catch (RuntimeException ex) {
				// A shorter lease may still be set in Redis: the local deadline must not outlast it.
				held.leaseResetMayApply(sentAt, leaseNanos);
				throw ex;
			}
			if (owned) {
				held.leaseResetAt(sentAt, leaseNanos);
				if (held.autoRenewed) {
					this.renewer.leaseChanged(held, leaseNanos);
				}
				// False if the lease ran out (and the loss was reported) while the reply was on its way.
				return held.isHeld();
			}
		}
		finally {
			held.unlockLease();
		}
		lockLost(held, "extend found the lock key expired or owned by another instance");
		return false;
	}

	void release(HeldLock held, Duration minHoldTime) {
		if (held.depth.decrementAndGet() > 0) {
			if (!held.isHeld()) {
				throw lost(held, held.lostReason());
			}
			return;
		}
		// An interrupted holder's release must still reach Redis.
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
				// Never throws today; the entry and the interrupt must survive it if it ever does.
				this.observer.released(held, failure);
			}
			finally {
				leave(held.entry);
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}
	}

	private void releaseOutermost(HeldLock held, Duration minHoldTime) {
		LockEntry entry = held.entry;
		boolean inLease = held.isHeld();
		// Lost meanwhile (renewal or shutdown): the hold stays lost, and that loss was reported.
		boolean released = held.markReleased();
		boolean lossReported = !released;
		entry.holdClosed(held);
		String lostReason = (inLease && released) ? null : held.lostReason();
		if (lostReason != null) {
			// Remove our key if it is still ours; never anyone else's.
			releaseQuietly(entry.key, held.ownerToken);
			entry.holderGone(held);
			throw lossReported ? lost(held, lostReason) : lostAtRelease(held, lostReason);
		}
		long keepNanos = minHoldTime.toNanos() - (System.nanoTime() - held.acquiredAtNanos);
		if (keepNanos > 0) {
			long keepMillis = keepMillis(keepNanos);
			Supplier<Boolean> expire = () -> this.commands.expire(entry.key, held.ownerToken, keepMillis);
			boolean owned;
			// After a renewal in flight, never before: its longer lease would outlast the minimum hold.
			held.lockLeaseUninterruptibly();
			try {
				owned = despiteInterrupts(expire, expire);
			}
			finally {
				held.unlockLease();
			}
			entry.holderGone(held);
			if (!owned) {
				throw lostAtRelease(held, "the lock key had expired or was owned by another instance at release");
			}
			if (logger.isDebugEnabled()) {
				logger.debug("Released lock '" + LogSafe.text(entry.lockId)
						+ "'; it expires after its minimum hold time");
			}
			return;
		}
		Waiter next = entry.pickForHandOver();
		if (next != null) {
			handOver(held, next);
			return;
		}
		boolean owned;
		try {
			owned = despiteInterrupts(() -> this.commands.release(entry.key, held.ownerToken), () -> {
				// Whether the interrupted release was applied is unknown: a repeat finding nothing is no loss.
				this.commands.release(entry.key, held.ownerToken);
				return true;
			});
		}
		catch (RuntimeException ex) {
			entry.holderGone(held);
			if (!isUnreachable(ex)) {
				throw ex;
			}
			logger.warn("Could not release lock '" + LogSafe.text(entry.lockId)
					+ "'; it expires with its lease: " + withReply(ex));
			return;
		}
		entry.holderGone(held);
		if (!owned) {
			throw lostAtRelease(held, "the lock key had expired or was owned by another instance at release");
		}
		if (logger.isDebugEnabled()) {
			logger.debug("Released lock '" + LogSafe.text(entry.lockId) + "'");
		}
	}

	/**
	 * Hands the lock to a waiter of this instance in one round trip, without freeing it in Redis.
	 */
	private void handOver(HeldLock held, Waiter next) {
		LockEntry entry = held.entry;
		long lease = (next.fixedLeaseNanos > 0) ? next.fixedLeaseNanos : this.leaseNanos;
		String newOwner = this.tokens.next();
		boolean mayStayLocal = entry.handOversSinceRedis() < MAX_HAND_OVERS_WHILE_CONTENDED;
		long sentAt = System.nanoTime();
		long reply;
		try {
			reply = despiteInterrupts(
					() -> this.commands.handOver(entry.key, held.ownerToken, newOwner, toMillis(lease), mayStayLocal),
					() -> {
						// The interrupted hand-over may or may not have been applied: free the lock either way,
						// as if released instead; the waiter then competes for it.
						this.commands.release(entry.key, newOwner);
						this.commands.release(entry.key, held.ownerToken);
						return -1L;
					});
		}
		catch (RuntimeException ex) {
			releaseLater(entry.key, newOwner);
			entry.holderGone(held);
			entry.handOverFailed(next);
			if (!isUnreachable(ex)) {
				throw ex;
			}
			logger.warn("Could not release lock '" + LogSafe.text(entry.lockId)
					+ "'; it expires with its lease: " + withReply(ex));
			return;
		}
		if (reply > 0 && System.nanoTime() - sentAt < lease) {
			HeldLock successor = new HeldLock(entry, newOwner, reply, next.thread, lease, next.fixedLeaseNanos == 0,
					sentAt);
			entry.handedOver(successor);
			boolean started;
			try {
				started = startHolding(successor);
			}
			catch (RuntimeException ex) {
				entry.holderGone(held);
				entry.handOverFailed(next);
				throw ex;
			}
			if (!started) {
				// Undone: the service shut down. The waiter sees that and gives up.
				entry.holderGone(held);
				entry.handOverFailed(next);
				return;
			}
			next.grant(successor);
			if (logger.isDebugEnabled()) {
				logger.debug("Released lock '" + LogSafe.text(entry.lockId) + "' to a waiting thread of this instance");
			}
			return;
		}
		if (reply > 0) {
			// Handed over only after the new lease had run out.
			releaseLater(entry.key, newOwner);
		}
		entry.holderGone(held);
		entry.handOverFailed(next);
		if (reply == 0) {
			throw lostAtRelease(held, "the lock key had expired or was owned by another instance at release");
		}
	}

	/**
	 * Runs a release-path command to its end although the calling thread gets interrupted. Lettuce
	 * stops waiting for the reply of an interrupted thread, while the command may still be applied;
	 * so after such a failure {@code repeat}, which must be safe whatever the first command did, runs
	 * on a thread nobody interrupts and is waited for uninterruptibly (interrupts can come faster than
	 * round trips). The caller's interrupt is kept.
	 */
	private <T> T despiteInterrupts(Supplier<T> command, Supplier<T> repeat) {
		try {
			return command.get();
		}
		catch (RuntimeException ex) {
			// The flag is checked and the cause too: the exception translation does not always keep the flag.
			if (!Thread.currentThread().isInterrupted() && !causedByInterrupt(ex)) {
				throw ex;
			}
			try {
				return this.detached.call(repeat);
			}
			finally {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Whether a failed release is Redis being unreachable, slow or temporarily unable to write, which
	 * the lease covers. Any other error reply (e.g. an ACL's {@code NOPERM}) is a mistake that must
	 * reach the caller.
	 */
	private static boolean isUnreachable(RuntimeException failure) {
		if (failure instanceof DataAccessResourceFailureException || failure instanceof TransientDataAccessException) {
			return true;
		}
		// An error reply starts with its error code, e.g. "LOADING Redis is loading the dataset in memory".
		String message = String.valueOf(rootCause(failure).getMessage());
		int end = message.indexOf(' ');
		return TRANSIENT_ERROR_CODES.contains((end > 0) ? message.substring(0, end) : message);
	}

	/** The exception with Redis's reply, which Spring Data Redis wraps as "Error in execution". */
	private static String withReply(RuntimeException failure) {
		Throwable root = rootCause(failure);
		return (root != failure) ? failure + " (" + root.getMessage() + ")" : failure.toString();
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return root;
	}

	private static boolean causedByInterrupt(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InterruptedException) {
				return true;
			}
		}
		return false;
	}

	/** Called when renewal or extend finds the lock gone. */
	private void lockLost(HeldLock held, String reason) {
		if (held.markLost(reason)) {
			this.locksLost.incrementAndGet();
			logLost(held, reason);
			held.entry.signalHead();
			// Never on the thread that found the loss (a renewal thread, or the holder's in extend).
			this.lockLostEvents.publish(new LockLostEvent(this, held.entry.lockId, held.fencingToken, reason));
		}
	}

	/** A loss that only the release found (e.g. a fixed lease ran out): counted and logged once. */
	private LockLostException lostAtRelease(HeldLock held, String reason) {
		this.locksLost.incrementAndGet();
		logLost(held, reason);
		return lost(held, reason);
	}

	/** The one INFO line per lost lock; never the owner token. */
	private static void logLost(HeldLock held, String reason) {
		String name = held.name;
		logger.info("Lost lock '" + LogSafe.text(held.entry.lockId) + "'"
				+ ((name != null) ? " (name '" + LogSafe.text(name) + "')" : "") + ": " + reason);
	}

	/**
	 * Observes acquisitions and holds with Micrometer: observations {@code distlock.acquire} and
	 * {@code distlock.hold}. Without a registry (the default) nothing is observed.
	 * @param registry the observation registry
	 * @param acquireConvention a convention replacing the default one, or {@code null}
	 * @param holdConvention a convention replacing the default one, or {@code null}
	 */
	public void setObservationRegistry(ObservationRegistry registry,
			@Nullable LockAcquireObservationConvention acquireConvention,
			@Nullable LockHoldObservationConvention holdConvention) {
		this.observer = new LockObserver(registry, acquireConvention, holdConvention);
	}

	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher eventPublisher) {
		this.lockLostEvents.setPublisher(eventPublisher);
	}

	/**
	 * The locks this instance holds now.
	 * @return a snapshot, one entry per held lock id
	 */
	public List<HeldLockInfo> heldLocks() {
		List<HeldLockInfo> held = new ArrayList<>();
		long now = System.nanoTime();
		Instant wallNow = Instant.now();
		for (LockEntry entry : this.entries.values()) {
			HeldLock holder = entry.holder();
			if (holder != null && holder.isHeld()) {
				held.add(new HeldLockInfo(entry.lockId, holder.fencingToken,
						wallNow.minusNanos(now - holder.acquiredAtNanos), Duration.ofNanos(holder.remainingNanos()),
						holder.depth.get(), holder.autoRenewed, holder.renewalFailing, holder.name));
			}
		}
		return held;
	}

	/**
	 * How long the current holder's lease (on any instance) still runs, in one round trip.
	 * @param lockId the lock id
	 * @return the remaining lease, or empty if nobody holds the lock
	 */
	public Optional<Duration> remainingLease(String lockId) {
		checkLockId(lockId);
		long millis = this.commands.remainingMillis(this.keys.lockKey(lockId));
		return (millis >= 0) ? Optional.of(Duration.ofMillis(millis)) : Optional.empty();
	}

	/**
	 * Runs the owner-checked release script on a lock that no owner token can match: one round
	 * trip that changes nothing, but fails when Redis cannot be reached or refuses to run the lock
	 * scripts (e.g. an ACL without {@code EVALSHA} or without access to the key prefix).
	 * @throws org.springframework.dao.DataAccessException when the script cannot run
	 */
	public void verifyScripts() {
		this.commands.release(this.keys.lockKey(SCRIPT_PROBE_LOCK_ID), SCRIPT_PROBE_OWNER);
	}

	/** Locks found lost since startup. */
	public long locksLost() {
		return this.locksLost.get();
	}

	/** Failed renewal attempts since startup (a renewal is retried until the lease runs out). */
	public long renewalFailures() {
		return this.renewalFailures.get();
	}

	/** Whether the last renewal of any held lock failed. */
	public boolean isRenewalFailing() {
		for (LockEntry entry : this.entries.values()) {
			HeldLock holder = entry.holder();
			if (holder != null && holder.isHeld() && holder.renewalFailing) {
				return true;
			}
		}
		return false;
	}

	private void releaseAnnounced(String key) {
		LockEntry entry = this.entries.get(key);
		if (entry != null) {
			entry.signalHead();
		}
	}

	private void releaseQuietly(String key, String owner) {
		try {
			this.commands.release(key, owner);
		}
		catch (RuntimeException ex) {
			logger.debug("Owner-checked clean-up of a lost lock failed; it expires with its lease", ex);
		}
	}

	/** Clean-up after an ambiguous command, off the caller's thread. */
	private void releaseLater(String key, String owner) {
		this.detached.execute(() -> releaseQuietly(key, owner));
	}

	private LockEntry enter(String key, String lockId) {
		return this.entries.compute(key, (k, existing) -> {
			LockEntry entry = (existing != null) ? existing : new LockEntry(k, lockId);
			entry.users++;
			return entry;
		});
	}

	private void leave(LockEntry entry) {
		this.entries.computeIfPresent(entry.key, (k, existing) -> (existing == entry && --existing.users == 0) ? null
				: existing);
	}

	/** Number of lock ids this instance tracks (held or waited for); 0 when idle. */
	int trackedLockCount() {
		return this.entries.size();
	}

	/** Renewal tasks (and clean-ups) scheduled and not yet run; 0 when idle. */
	int pendingRenewalTasks() {
		return this.renewer.pendingTasks() + this.detached.pending();
	}

	private static long recheckNanos(long holderTtlMillis, boolean subscribed) {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		long bound = subscribed ? SUBSCRIBED_RECHECK_NANOS : UNSUBSCRIBED_RECHECK_NANOS;
		long delay = bound / 2 + random.nextLong(bound / 2 + 1);
		if (holderTtlMillis >= 0) {
			// The holder's lease ends then at the latest, and a holder that died publishes nothing.
			long untilExpiry = TimeUnit.MILLISECONDS.toNanos(holderTtlMillis);
			delay = Math.min(delay, untilExpiry + random.nextLong(untilExpiry / 10 + 1) + 100_000);
		}
		return delay;
	}

	private LockLostException lost(HeldLock held, @Nullable String reason) {
		return new LockLostException(held.entry.lockId,
				"Lock '" + LogSafe.text(held.entry.lockId) + "' was lost before it was released: " + reason);
	}

	private static LockNotAcquiredException interrupted(String lockId) {
		Thread.currentThread().interrupt();
		return new LockNotAcquiredException(lockId,
				"Interrupted while waiting for lock '" + LogSafe.text(lockId) + "'", new InterruptedException());
	}

	private static void checkArguments(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
		checkLockId(lockId);
		if (waitTime == null || waitTime.isNegative()) {
			throw new IllegalArgumentException("waitTime of lock '" + LogSafe.text(lockId)
					+ "' must not be null or negative, but was " + waitTime);
		}
		if (leaseTime != null && leaseTime.compareTo(Duration.ofMillis(1)) < 0) {
			throw new IllegalArgumentException("leaseTime of lock '" + LogSafe.text(lockId)
					+ "' must be at least 1ms (or null for an auto-renewed lease), but was " + leaseTime);
		}
	}

	private static void checkLockId(String lockId) {
		if (lockId == null || lockId.isEmpty()) {
			throw new IllegalArgumentException("lockId must not be null or empty");
		}
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return Math.min(duration.toNanos(), Long.MAX_VALUE / 4);
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 4;
		}
	}

	private static long toMillis(long nanos) {
		return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos));
	}

	/**
	 * The rest of a minimum hold time in whole milliseconds, rounded up: the lock is never freed
	 * earlier than asked.
	 */
	static long keepMillis(long keepNanos) {
		return -Math.floorDiv(-keepNanos, 1_000_000L);
	}

	/**
	 * Nothing to do: the service runs from its creation, also when it is created lazily, after the
	 * context started.
	 */
	@Override
	public void start() {
	}

	/**
	 * Shuts the service down like {@link #destroy()}, while Redis can still be reached. A stopped
	 * service is not restarted: it refuses new acquisitions.
	 */
	@Override
	public void stop() {
		destroy();
	}

	@Override
	public boolean isRunning() {
		return !this.closed;
	}

	@Override
	public int getPhase() {
		return SHUTDOWN_PHASE;
	}

	/**
	 * Releases every lock this instance holds (owner-checked) and stops renewal; threads still
	 * holding one get {@link LockLostException} when they close it. Idempotent.
	 */
	@Override
	public void destroy() {
		this.closed = true;
		this.releases.close();
		for (LockEntry entry : this.entries.values()) {
			HeldLock held = entry.holder();
			if (held != null && held.markLost("released when the LockService shut down")) {
				releaseQuietly(entry.key, held.ownerToken);
			}
			entry.signalAll();
		}
		this.renewer.close();
		this.detached.close();
		this.lockLostEvents.close();
	}

	private record Attempt(@Nullable HeldLock held, long holderTtlMillis) {
	}

}
