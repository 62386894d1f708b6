package io.github.distlock.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.LockService;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link AutoConfigureInMemoryLocks @AutoConfigureInMemoryLocks} and {@link TestLocks}
 * drive the real interception paths: a lock held elsewhere makes {@code THROW} throw and
 * {@code SKIP} skip without running the method; a forced loss of an auto-renewed lock
 * publishes the {@code LockLostEvent} and fails the method with
 * {@code LockLostException}, and so does the loss of a fixed lease at its release; the
 * test clock lets the watchdog keep a lock, or ends it, without sleeping. Although
 * {@code distributed-lock.store=redis} is set, the annotation wins and no Redis is used.
 */
@SpringBootTest(properties = "distributed-lock.store=redis")
@AutoConfigureInMemoryLocks
class InMemoryLocksTests {

	private static final long BOUND_SECONDS = 30;

	@Autowired
	private Jobs jobs;

	@Autowired
	private TestLocks locks;

	@Autowired
	private LockService lockService;

	@Autowired
	private LockLostEvents lostEvents;

	@Autowired
	private InMemoryLockStore store;

	@BeforeEach
	void reset() {
		this.jobs.resetRuns();
		// Each test that loses a lock waits for its event: none is in flight now.
		this.lostEvents.lockIds.clear();
	}

	@Test
	void recordsWhatWasAcquiredAndReleasedInOrder() {
		this.jobs.buy("apple", () -> this.jobs.buy("pear", () -> {
		}));
		this.jobs.buy("apple", () -> {
		});
		assertThat(this.locks.acquired()).containsExactly("stock:apple", "stock:pear", "stock:apple");
		assertThat(this.locks.released()).containsExactly("stock:pear", "stock:apple", "stock:apple");
		List<LockRecord> records = this.locks.records();
		assertThat(records).extracting(LockRecord::kind)
			.containsExactly(LockRecord.Kind.ACQUIRED, LockRecord.Kind.ACQUIRED, LockRecord.Kind.RELEASED,
					LockRecord.Kind.RELEASED, LockRecord.Kind.ACQUIRED, LockRecord.Kind.RELEASED);
		assertThat(records.get(4).fencingToken()).isGreaterThan(records.get(0).fencingToken());
		assertThat(this.locks.held()).isEmpty();
	}

	@Test
	void assertsTheLockTheCodeRunsUnder() {
		this.jobs.buy("apple", () -> {
			LockHandle handle = TestLocks.assertLocked("stock:apple");
			assertThat(handle.isHeld()).isTrue();
			assertThat(this.locks.held()).containsExactly("stock:apple");
		});
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.jobs.buy("apple", () -> TestLocks.assertLocked("stock:pear")))
			.withMessage("Expected to run under lock 'stock:pear', but the innermost lock held on this thread is"
					+ " 'stock:apple'");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> TestLocks.assertLocked("stock:apple"))
			.withMessage("Expected to run under lock 'stock:apple', but no @DistributedLock invocation holds a lock"
					+ " on this thread");
	}

	@Test
	void lockHeldElsewhereMakesThrowThrowWithoutRunningTheMethod() {
		try (HeldElsewhere held = this.locks.holdElsewhere("stock:apple")) {
			assertThat(this.lockService.isLocked("stock:apple")).isTrue();
			assertThatExceptionOfType(LockNotAcquiredException.class).isThrownBy(() -> this.jobs.buy("apple", () -> {
			})).satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("stock:apple"));
			assertThat(this.jobs.runs()).isEqualTo(0);
			// Another key is free.
			this.jobs.buy("pear", () -> {
			});
		}
		this.jobs.buy("apple", () -> {
		});
		assertThat(this.locks.acquired()).containsExactly("stock:pear", "stock:apple");
	}

	@Test
	void lockHeldElsewhereMakesSkipSkip() {
		this.locks.holdElsewhere("report");
		assertThat(this.jobs.report()).isEmpty();
		assertThat(this.jobs.reportNow()).isFalse();
		assertThat(this.jobs.runs()).isEqualTo(0);
		assertThat(this.locks.acquired()).isEmpty();
	}

	@Test
	void releasingTheHoldElsewhereLetsAWaitingCallerThrough() throws Exception {
		HeldElsewhere held = this.locks.holdElsewhere("stock:apple");
		CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> this.jobs.buyWaiting("apple"));
		await().atMost(Duration.ofSeconds(BOUND_SECONDS)).until(() -> waiting.isDone() || waitsFor("stock:apple"));
		assertThat(waiting).isNotDone();
		held.release();
		waiting.get(BOUND_SECONDS, TimeUnit.SECONDS);
		assertThat(this.locks.acquired()).containsExactly("stock:apple");
	}

	@Test
	void heldElsewhereCannotTakeALockThatIsHeld() {
		this.jobs.buy("apple",
				() -> assertThatIllegalStateException().isThrownBy(() -> this.locks.holdElsewhere("stock:apple"))
					.withMessage("Lock 'stock:apple' cannot be held elsewhere: it is held already, by the application"
							+ " under test"));
		assertThatIllegalStateException().isThrownBy(() -> this.locks.loseLock("stock:apple"))
			.withMessage("Lock 'stock:apple' cannot be lost: the application does not hold it; it holds []");
	}

	@Test
	void forcedLossOfAnAutoRenewedLockPublishesTheEventAndFailsTheMethod() throws Exception {
		CountDownLatch finish = new CountDownLatch(1);
		LockHandle[] handle = new LockHandle[1];
		CompletableFuture<Void> export = startHolding((started) -> this.jobs.export(started, finish, handle));
		this.locks.loseLock("export");
		assertThat(handle[0].isHeld()).isFalse();
		await().atMost(Duration.ofSeconds(BOUND_SECONDS)).until(() -> this.lostEvents.lockIds.contains("export"));
		// Another caller may take it now.
		this.locks.holdElsewhere("export").release();
		finish.countDown();
		assertThatThrownBy(() -> export.get(BOUND_SECONDS, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
			.cause()
			.isInstanceOf(LockLostException.class)
			.hasMessageContaining("renewal found the lock key expired or owned by another instance");
		assertThat(this.jobs.runs()).isEqualTo(1);
		assertThat(this.locks.records()).extracting(LockRecord::kind)
			.containsExactly(LockRecord.Kind.ACQUIRED, LockRecord.Kind.LOST);
		assertThat(this.locks.lost()).containsExactly("export");
	}

	@Test
	void forcedLossOfAFixedLeaseFailsTheMethodAtItsRelease() throws Exception {
		CountDownLatch finish = new CountDownLatch(1);
		CompletableFuture<Void> importing = startHolding((started) -> this.jobs.importFixed(started, finish));
		this.locks.loseLock("import");
		finish.countDown();
		assertThatThrownBy(() -> importing.get(BOUND_SECONDS, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
			.cause()
			.isInstanceOf(LockLostException.class)
			.hasMessageContaining("lost before it was released");
		assertThat(this.locks.lost()).containsExactly("import");
		// A fixed lease is never renewed, so no renewal found the loss: no event.
		assertThat(this.lostEvents.lockIds).isEmpty();
	}

	@Test
	void watchdogRunOnTheTestClockKeepsTheLockAndAPausedOneLosesIt() throws Exception {
		CountDownLatch finish = new CountDownLatch(1);
		LockHandle[] handle = new LockHandle[1];
		CompletableFuture<Void> export = startHolding((started) -> this.jobs.export(started, finish, handle));
		// The default lease is 30 s: ten minutes of the test clock, renewed every 20 s.
		for (int i = 0; i < 30; i++) {
			this.locks.advanceClock(Duration.ofSeconds(20));
			this.locks.renewNow();
			assertThat(handle[0].isHeld()).isTrue();
		}
		assertThat(this.store.remainingLeaseMillis("export")).isEqualTo(30_000);
		// Then the watchdog does not run for 31 s: the lease ran out in the store.
		this.locks.advanceClock(Duration.ofSeconds(31));
		assertThat(this.lockService.isLocked("export")).isFalse();
		this.locks.renewNow();
		assertThat(handle[0].isHeld()).isFalse();
		finish.countDown();
		assertThatThrownBy(() -> export.get(BOUND_SECONDS, TimeUnit.SECONDS)).cause()
			.isInstanceOf(LockLostException.class);
		await().atMost(Duration.ofSeconds(BOUND_SECONDS)).until(() -> this.lostEvents.lockIds.contains("export"));
	}

	@Test
	void holdElsewhereWithALeaseRunsOutOnTheTestClock() {
		this.locks.holdElsewhere("report", Duration.ofSeconds(5));
		assertThat(this.jobs.report()).isEmpty();
		this.locks.advanceClock(Duration.ofSeconds(5));
		assertThat(this.jobs.report()).contains("done");
		assertThat(this.locks.acquired()).containsExactly("report");
	}

	@Test
	void badArgumentsAreNamed() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> this.locks.holdElsewhere("report", Duration.ZERO))
			.withMessage("lease must be at least 1ms, but was 0s");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> this.locks.advanceClock(Duration.ofSeconds(-1)))
			.withMessage("A TestLockClock only moves forward: duration must not be negative, but was -1s");
	}

	/**
	 * Runs {@code job} on another thread and returns once it holds its lock (it opened
	 * {@code started}); it holds it until the test tells it to finish.
	 */
	private CompletableFuture<Void> startHolding(HoldingJob job) throws InterruptedException {
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
			try {
				job.run(started);
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		assertThat(started.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
		return run;
	}

	private boolean waitsFor(String lockId) {
		// The caller's entry exists while it tries to lock: it was refused and waits.
		return ((LockEngine) this.lockService).trackedLockCount() == 1 && this.lockService.isLocked(lockId);
	}

	/** A job of {@link Jobs} that opens {@code started} once it holds its lock. */
	@FunctionalInterface
	private interface HoldingJob {

		void run(CountDownLatch started) throws InterruptedException;

	}

}
