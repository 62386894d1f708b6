package io.github.distlock.test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.LockStore;
import io.github.distlock.support.DurationText;

/**
 * The locks of a test with
 * {@link AutoConfigureInMemoryLocks @AutoConfigureInMemoryLocks}: what was acquired and
 * released, in order; another instance holding a lock; a lock lost under its holder; time
 * passing with or without the watchdog. Inject it: {@code @Autowired TestLocks locks}.
 * <p>
 * All of it works on the real engine and interceptor over the in-memory store, so the
 * application's own {@code THROW}, {@code SKIP}, {@code LockLostException} and
 * {@code LockLostEvent} paths run as in production. Before each test method the records
 * are cleared and locks still {@linkplain #holdElsewhere(String) held elsewhere} are
 * released; the clock is not reset.
 * <p>
 * Time: the store's leases run out on the {@link #clock() test clock}, which moves only
 * when the test {@linkplain #advanceClock(Duration) advances} it. The engine measures its
 * own deadlines with {@link System#nanoTime()}, so a lease ended by the test clock looks
 * held to its holder ({@link LockHandle#isHeld()}) until the holder next speaks to the
 * store: the watchdog's renewal (run it now with {@link #renewNow()}), {@code extend}, or
 * the release, which throws {@link io.github.distlock.LockLostException}. That is what a
 * holder sees in production when its lock expired in Redis behind its back. For the same
 * reason another thread of the application waits for such a holder locally, as it would
 * in production: the test clock frees a lock for other instances
 * ({@link #holdElsewhere(String)}), not for the holder's own instance. A test of a holder
 * paused past its lease while a thread of the same instance takes over needs real time
 * (see the sample's {@code FencedPurchaseTests}, on {@link LocalRedisServer}).
 */
public final class TestLocks {

	/** A lease of the test clock that no test runs out by accident: 100 years. */
	private static final Duration UNTIL_RELEASED = Duration.ofDays(36_500);

	private final RecordingLockStore store;

	private final TestLockClock clock;

	private final List<LockEngine> engines = new CopyOnWriteArrayList<>();

	private final Set<HeldElsewhere> heldElsewhere = ConcurrentHashMap.newKeySet();

	/**
	 * The kit over {@code store}, whose leases run out on {@code clock}.
	 * @param store the in-memory store, on {@code clock}
	 * @param clock the test clock
	 */
	TestLocks(InMemoryLockStore store, TestLockClock clock) {
		this.store = new RecordingLockStore(store);
		this.clock = clock;
	}

	/**
	 * The store to build the application's lock engine on: the in-memory store, with what
	 * the engine does to it recorded.
	 * @return the recording store
	 */
	LockStore store() {
		return this.store;
	}

	/**
	 * Lets {@link #renewNow()} and {@link #loseLock(String)} renew the locks of
	 * {@code engine}, built on {@link #store()}.
	 * @param engine the application's lock engine
	 */
	void register(LockEngine engine) {
		this.engines.add(engine);
	}

	/**
	 * The clock the store's leases run out on.
	 * @return the test clock
	 */
	public TestLockClock clock() {
		return this.clock;
	}

	/**
	 * Moves the test clock on, without renewing anything: as if the watchdog had not run
	 * meanwhile (the process was paused, say). Leases shorter than {@code duration} run
	 * out in the store. To let the watchdog keep auto-renewed locks alive, advance by
	 * less than their lease and {@link #renewNow()} after each step.
	 * @param duration how far, not negative
	 */
	public void advanceClock(Duration duration) {
		this.clock.advance(duration);
	}

	/**
	 * Runs the watchdog now, on this thread: every auto-renewed lock of the application
	 * is renewed from the test clock's present, and one found gone is lost as in
	 * production (the {@link io.github.distlock.context.LockLostEvent} is published on
	 * the engine's event thread, so a test waits for its listener with a bound). Fixed
	 * leases are never renewed.
	 */
	public void renewNow() {
		for (LockEngine engine : this.engines) {
			engine.renewNow();
		}
	}

	/**
	 * Takes {@code lockId} for another instance, until
	 * {@linkplain HeldElsewhere#release() released} (or the next test method): the
	 * application's callers then find it held, so {@code onFailure = THROW} throws
	 * {@link io.github.distlock.LockNotAcquiredException} and {@code SKIP} skips. They
	 * wait for it first, in real time, as long as their wait time says
	 * ({@code distributed-lock.wait-time}, 10 s unless set): tests of the failure paths
	 * set it to {@code 0}, or release the hold from another thread to let a waiting
	 * caller through.
	 * @param lockId the lock id, as the application names it ({@code name:key})
	 * @return the hold, to release
	 * @throws IllegalStateException if the lock is held already
	 */
	public HeldElsewhere holdElsewhere(String lockId) {
		return holdElsewhere(lockId, UNTIL_RELEASED);
	}

	/**
	 * Takes {@code lockId} for another instance with a lease of the test clock: it runs
	 * out when the test {@linkplain #advanceClock(Duration) advances} the clock past it,
	 * as a crashed holder's lock does.
	 * @param lockId the lock id
	 * @param lease the lease, at least 1 ms
	 * @return the hold, to release
	 * @throws IllegalStateException if the lock is held already
	 */
	public HeldElsewhere holdElsewhere(String lockId, Duration lease) {
		if (lease == null || lease.toMillis() < 1) {
			throw new IllegalArgumentException("lease must be at least 1ms, but was " + DurationText.of(lease));
		}
		InMemoryLockStore memory = this.store.inMemoryStore();
		String key = memory.key(lockId);
		String owner = "distlock-test-elsewhere:" + UUID.randomUUID();
		AcquireReply reply = memory.acquire(key, owner, lease.toMillis());
		if (reply instanceof HeldByOther) {
			boolean ours = this.store.heldLockIds().contains(key);
			throw new IllegalStateException("Lock '" + lockId + "' cannot be held elsewhere: it is held already, by "
					+ (ours ? "the application under test" : "another holdElsewhere"));
		}
		if (!(reply instanceof Acquired acquired)) {
			throw new IllegalStateException("Lock '" + lockId + "' was not acquired: " + reply);
		}
		HeldElsewhere hold = new HeldElsewhere(memory, key, owner, acquired.fencingToken(), this.heldElsewhere::remove);
		this.heldElsewhere.add(hold);
		return hold;
	}

	/**
	 * Ends the application's hold of {@code lockId} in the store, as if its lease had run
	 * out there, and runs the watchdog now: an auto-renewed holder is lost at once
	 * ({@link io.github.distlock.context.LockLostEvent} published; {@code isHeld()}
	 * false; {@link io.github.distlock.LockLostException} when it closes the lock); a
	 * holder of a fixed lease finds out at its release, which throws
	 * {@code LockLostException}. Another caller may take the lock meanwhile.
	 * @param lockId the lock id the application holds
	 * @throws IllegalStateException if the application does not hold it
	 */
	public void loseLock(String lockId) {
		String key = this.store.key(lockId);
		if (!this.store.endHold(key)) {
			throw new IllegalStateException("Lock '" + lockId
					+ "' cannot be lost: the application does not hold it; it holds " + this.store.heldLockIds());
		}
		renewNow();
	}

	/**
	 * What happened to the application's locks since the test method started, oldest
	 * first.
	 * @return the records
	 */
	public List<LockRecord> records() {
		return this.store.records();
	}

	/**
	 * The lock ids the application acquired in the store, in order (once per acquisition;
	 * reentrant acquisitions are not counted).
	 * @return the lock ids
	 */
	public List<String> acquired() {
		return lockIds(LockRecord.Kind.ACQUIRED);
	}

	/**
	 * The lock ids the application released in the store, in order.
	 * @return the lock ids
	 */
	public List<String> released() {
		return lockIds(LockRecord.Kind.RELEASED);
	}

	/**
	 * The lock ids whose holders found them lost, in order.
	 * @return the lock ids
	 */
	public List<String> lost() {
		return lockIds(LockRecord.Kind.LOST);
	}

	/**
	 * The lock ids the application holds in the store now.
	 * @return the lock ids, sorted
	 */
	public List<String> held() {
		return this.store.heldLockIds();
	}

	/**
	 * Clears the records and releases every lock still held elsewhere; called before each
	 * test method.
	 */
	public void reset() {
		for (HeldElsewhere hold : List.copyOf(this.heldElsewhere)) {
			hold.release();
		}
		this.store.clearRecords();
	}

	/**
	 * Asserts that the calling code runs under {@code lockId}: that the innermost
	 * {@link io.github.distlock.DistributedLock @DistributedLock} invocation on this
	 * thread holds it ({@link LockContext#current()}). Call it from code the locked
	 * method calls (a test double of a collaborator, say), as ShedLock's
	 * {@code LockAssert.assertLocked()}.
	 * @param lockId the expected lock id ({@code name} or {@code name:key})
	 * @return the handle of that lock
	 * @throws AssertionError if no lock, another lock, or a lost lock is current
	 */
	public static LockHandle assertLocked(String lockId) {
		LockHandle current = LockContext.current()
			.orElseThrow(() -> new AssertionError("Expected to run under lock '" + lockId
					+ "', but no @DistributedLock invocation holds a lock on this thread"));
		if (!current.lockId().equals(lockId)) {
			throw new AssertionError("Expected to run under lock '" + lockId
					+ "', but the innermost lock held on this thread is '" + current.lockId() + "'");
		}
		if (!current.isHeld()) {
			throw new AssertionError("Expected to run under lock '" + lockId + "', but it was lost");
		}
		return current;
	}

	private List<String> lockIds(LockRecord.Kind kind) {
		return records().stream().filter((record) -> record.kind() == kind).map(LockRecord::lockId).toList();
	}

}
