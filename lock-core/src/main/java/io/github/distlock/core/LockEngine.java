package io.github.distlock.core;

import io.github.distlock.HeldLockInfo;
import io.github.distlock.LockInspection;
import io.github.distlock.runtime.EngineRuntime;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.MultiLockHandle;
import io.github.distlock.OnLockFailure;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.observation.NamedLockService;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.support.DurationText;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The lock engine: a {@link LockService} over any {@link LockStore}.
 * <p>
 * Each acquisition gets a fresh, unguessable owner token; release, renewal and hand-over
 * are owner-checked in the store, so a holder whose lease ran out can never touch the
 * next holder's lock. A thread that holds a lock locks it again without a round trip
 * (reentrancy). Threads of this instance waiting for one lock queue here and park: the
 * local holder hands the lock to the first of them without freeing it in the store, a
 * release announced by the store wakes it, and a bounded, jittered re-check covers lost
 * announcements and holders that died. Auto-renewed leases are renewed by one watchdog
 * thread. No monitor is held around a store call.
 * <p>
 * The jobs are split: {@link LockAcquirer} (waiting), {@link AcquireAttempts} (one
 * acquire round trip), {@link QueuedGrants} (grants to a queued waiter),
 * {@link Reentrancy}, {@link LockReleaser} (minimum hold, hand-over, release),
 * {@link LockRenewer} (renewal), {@link LockLosses} (loss signalling),
 * {@link LockObserver} (observations); the state of one lock id is its {@link LockEntry}.
 */
public class LockEngine implements NamedLockService, LockInspection, ManagedLockService, AutoCloseable {

	private final LockStore store;

	private final EngineRuntime runtime;

	private final LockEntries entries;

	private final AtomicLong replicationFailures = new AtomicLong();

	private final LockLostPublisher lockLostEvents;

	private final LockLosses losses;

	private final RenewalOutcomes renewalOutcomes;

	private final DetachedCommands detached;

	private final LockRenewer renewer;

	private final ReleaseNotifications releases;

	private final LockReleaser releaser;

	private final LockAcquirer acquirer;

	private final FairAcquirer fairAcquirer;

	private final FairLockService fair = new FairLockService(this);

	private final SharedAcquisitions shared;

	private final Reentrancy reentrancy;

	private volatile LockObserver observer = LockObserver.none();

	private final EngineShutdown shutdown;

	/** An engine on {@link EngineRuntime#system()}, the JVM's clock and threads. */
	public LockEngine(LockStore store, Duration leaseTime) {
		this(store, leaseTime, EngineRuntime.system());
	}

	/**
	 * @param store where the locks live
	 * @param leaseTime lease of auto-renewed locks, renewed about every third of it; at
	 * least 3 ms
	 * @param runtime the clock, threads and randomness the engine runs on (a simulation
	 * brings its own; applications {@link EngineRuntime#system()})
	 */
	public LockEngine(LockStore store, Duration leaseTime, EngineRuntime runtime) {
		if (leaseTime == null || leaseTime.compareTo(Duration.ofMillis(3)) < 0) {
			throw new IllegalArgumentException("leaseTime must be at least 3ms, but was " + DurationText.of(leaseTime));
		}
		long leaseNanos = leaseTime.toNanos();
		this.store = store;
		this.runtime = runtime;
		this.entries = new LockEntries(runtime);
		this.lockLostEvents = new LockLostPublisher(runtime);
		this.losses = new LockLosses(this.lockLostEvents);
		this.renewalOutcomes = new RenewalOutcomes(this.losses);
		this.detached = new DetachedCommands(runtime);
		this.shutdown = new EngineShutdown(runtime);
		this.renewer = new LockRenewer(store, this.renewalOutcomes, runtime);
		this.releases = store.subscribe(this.entries);
		this.releaser = new LockReleaser(store, runtime, this.renewer, this.losses, this.detached, leaseNanos,
				this.shutdown::isClosed, this.replicationFailures::incrementAndGet);
		this.acquirer = new LockAcquirer(store, this.releases, runtime, this.releaser, leaseNanos,
				this.shutdown::isClosed, this.replicationFailures::incrementAndGet);
		this.fairAcquirer = new FairAcquirer(store, this.releases, runtime, this.releaser, leaseNanos,
				this.shutdown::isClosed);
		this.reentrancy = new Reentrancy(this.losses, this.releaser, this::observer);
		this.shared = new SharedAcquisitions(this, store, this.entries, this.shutdown, this.reentrancy,
				new SharedAcquirer(store, this.releases, runtime, this.releaser, leaseNanos, this.shutdown::isClosed));
	}

	@Override
	public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
		return tryLock(null, lockId, waitTime, leaseTime, OnLockFailure.THROW);
	}

	@Override
	public Optional<LockHandle> tryLock(@Nullable String lockName, String lockId, Duration waitTime,
			@Nullable Duration leaseTime, OnLockFailure onFailure) {
		return tryLock(lockName, lockId, waitTime, leaseTime, onFailure, false);
	}

	/** {@inheritDoc} The wait is counted on the engine's clock. */
	@Override
	public Optional<LockHandle> tryLockAll(Collection<String> lockIds, Duration waitTime,
			@Nullable Duration leaseTime) {
		return MultiLockHandle.acquire(lockIds, waitTime, (lockId, left) -> tryLock(lockId, left, leaseTime),
				this.runtime::nanoTime);
	}

	@Override
	public NamedLockService fair() {
		if (!this.store.supportsFairLocks()) {
			throw FairLockService.unsupported(this.store);
		}
		return this.fair;
	}

	@Override
	public NamedLockService read() {
		return this.shared.read();
	}

	/** {@inheritDoc} Its holds, as READ ones, are acquired by {@link SharedAcquirer}. */
	@Override
	public NamedLockService permits(int permits) {
		return (permits == 1) ? this : this.shared.permits(permits);
	}

	Optional<LockHandle> tryLock(@Nullable String lockName, String lockId, Duration waitTime,
			@Nullable Duration leaseTime, OnLockFailure onFailure, boolean fair) {
		LockArguments.check(lockId, waitTime, leaseTime);
		return this.shutdown.acquisition(lockId,
				() -> enterAndAcquire(lockName, lockId, waitTime, leaseTime, onFailure, fair));
	}

	private Optional<LockHandle> enterAndAcquire(@Nullable String lockName, String lockId, Duration waitTime,
			@Nullable Duration leaseTime, OnLockFailure onFailure, boolean fair) {
		String key = this.store.key(lockId);
		this.shared.refuseUpgrade(key, lockId);
		LockEntry entry = this.entries.enter(key, lockId);
		HeldLock acquired = null;
		try {
			HeldLock current = this.reentrancy.reenter(entry);
			if (current != null) {
				return Optional.of(new LockEngineHandle(this, current));
			}
			long fixedLeaseNanos = (leaseTime != null) ? leaseTime.toNanos() : 0;
			LockObserver observer = this.observer;
			// Unobserved (the default), no Supplier is made for the observer.
			acquired = observer.isNoop() ? acquire(entry, waitTime, fixedLeaseNanos, fair) : observer.acquire(lockId,
					lockName, onFailure, () -> acquire(entry, waitTime, fixedLeaseNanos, fair));
			if (acquired != null) {
				acquired.name = lockName;
			}
			return (acquired != null) ? Optional.of(new LockEngineHandle(this, acquired)) : Optional.empty();
		}
		finally {
			if (acquired == null) {
				// Reentrant holds and failures: the outermost holder keeps the entry.
				this.entries.leave(entry);
			}
		}
	}

	private @Nullable HeldLock acquire(LockEntry entry, Duration waitTime, long fixedLeaseNanos, boolean fair) {
		return fair ? this.fairAcquirer.acquire(entry, waitTime, fixedLeaseNanos)
				: this.acquirer.acquire(entry, waitTime, fixedLeaseNanos);
	}

	LockObserver observer() {
		return this.observer;
	}

	/** See {@link LockEntries#announcementFallbacks()}. */
	long announcementFallbacks() {
		return this.entries.announcementFallbacks();
	}

	@Override
	public boolean isLocked(String lockId) {
		LockArguments.checkLockId(lockId);
		return this.store.remainingLeaseMillis(this.store.key(lockId)) >= 0;
	}

	boolean extend(HeldLock held, Duration leaseTime) {
		return this.renewer.extend(held, leaseTime);
	}

	/** The fencing token of {@code held}, issued on its first read if need be. */
	long fencingToken(HeldLock held) {
		return FencingTokenReads.read(held, this.store, this.losses);
	}

	void release(HeldLock held, Duration minHoldTime) {
		this.shutdown.release(() -> this.releaser.release(held, minHoldTime,
				(failure) -> this.observer.released(held, failure), () -> this.entries.leave(held.entry)));
	}

	/**
	 * Observes acquisitions and holds with Micrometer: observations
	 * {@code distlock.acquire} and {@code distlock.hold}. Without a registry (the
	 * default) nothing is observed.
	 * @param registry the observation registry
	 * @param acquireConvention a convention replacing the default one, or {@code null}
	 * @param holdConvention a convention replacing the default one, or {@code null}
	 */
	public void setObservationRegistry(ObservationRegistry registry,
			@Nullable LockAcquireObservationConvention acquireConvention,
			@Nullable LockHoldObservationConvention holdConvention) {
		this.observer = new LockObserver(registry, acquireConvention, holdConvention);
	}

	/**
	 * Sets who is told of the locks found lost while their holders still work (none by
	 * default: losses are then only counted, logged and thrown at release). In a Spring
	 * application {@code lock-spring} sets one publishing {@code LockLostEvent}s.
	 * @param listener the listener, called on a thread of the engine's own
	 */
	public void setLockLostListener(LockLostListener listener) {
		this.lockLostEvents.setListener(listener);
	}

	@Override
	public List<HeldLockInfo> heldLocks() {
		return this.entries.heldLocks();
	}

	@Override
	public Optional<Duration> remainingLease(String lockId) {
		LockArguments.checkLockId(lockId);
		long millis = this.store.remainingLeaseMillis(this.store.key(lockId));
		return (millis >= 0) ? Optional.of(Duration.ofMillis(millis)) : Optional.empty();
	}

	@Override
	public void verifyStore() {
		this.store.verify();
	}

	@Override
	public long locksLost() {
		return this.losses.count();
	}

	@Override
	public long renewalFailures() {
		return this.renewalOutcomes.failures();
	}

	@Override
	public long replicationFailures() {
		return this.replicationFailures.get();
	}

	@Override
	public boolean isRenewalFailing() {
		return this.entries.isRenewalFailing();
	}

	/**
	 * Lock ids this instance tracks, held or waited for; 0 when idle (for diagnostics).
	 * @return the number of tracked lock ids
	 */
	public int trackedLockCount() {
		return this.entries.size();
	}

	/**
	 * Renewal tasks, lease guards and clean-ups not yet run; 0 when no lock is held.
	 * @return the number of pending tasks
	 */
	public int pendingRenewalTasks() {
		return this.renewer.pendingTasks() + this.detached.pending();
	}

	/** Locks waiting in the renewal sweep, also those no longer held (for tests). */
	long sweepEntries() {
		return this.renewer.sweepEntries();
	}

	/**
	 * Renews every auto-renewed lock this instance holds now, on the calling thread, as
	 * the watchdog would (a lock found gone is lost: event, then
	 * {@link io.github.distlock.LockLostException} at close). For tests whose store runs
	 * on a clock they control (the testing kit's {@code TestLocks}); fixed leases are not
	 * renewed.
	 */
	public void renewNow() {
		this.entries.holders().forEach(this.renewer::renewNow);
	}

	/**
	 * Whether {@link #destroy()} has not begun.
	 * @return {@code true} until the engine shuts down
	 */
	public boolean isRunning() {
		return !this.shutdown.isClosed();
	}

	/** {@link #destroy()}: engines are {@link AutoCloseable} for try-with-resources. */
	@Override
	public void close() {
		destroy();
	}

	/**
	 * Releases every lock this instance holds (owner-checked), ends the waits of its
	 * threads (they throw {@link io.github.distlock.LockNotAcquiredException}) and waits
	 * for them to leave the store's queues, then stops renewal; threads still holding a
	 * lock get {@link io.github.distlock.LockLostException} when they close it. Waits at
	 * most {@link EngineShutdown#WAIT} for the store (see {@link EngineShutdown}).
	 * Idempotent. In a Spring application {@code lock-spring} calls it in the context's
	 * shutdown, while the store's connections still work.
	 */
	public void destroy() {
		long deadline = this.runtime.nanoTime() + EngineShutdown.WAIT.toNanos();
		this.shutdown.closeAndAwaitAcquisitions(() -> this.entries.releaseHoldersAndWakeWaiters(this.releaser),
				deadline);
		this.releases.close();
		this.renewer.close();
		this.detached.close(deadline);
		this.lockLostEvents.close();
	}

}
