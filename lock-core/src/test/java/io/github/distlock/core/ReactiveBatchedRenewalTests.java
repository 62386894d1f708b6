package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import io.github.distlock.LockLostException;
import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The reactive engine renews holds with long leases in batches ({@link RenewalSweep},
 * {@link AsyncRenewalBatch}), with the guarantees of renewing one hold at a time: each
 * hold answered and lost on its own, an unknown reply retried for its hold alone, and an
 * {@code extend} during a batch applied after it.
 */
class ReactiveBatchedRenewalTests {

	/** Renewed every 1.5 s: more than two sweep periods, so by the sweep. */
	private static final Duration LEASE = Duration.ofMillis(4_500);

	private static final Duration BOUND = Duration.ofSeconds(10);

	private static final int HOLDS = 200;

	private final BatchedRenewalTests.RecordingStore store = new BatchedRenewalTests.RecordingStore(
			new InMemoryLockStore());

	private final ReactiveLockEngine engine = new ReactiveLockEngine(this.store, LEASE);

	private final Queue<LostLock> lost = new ConcurrentLinkedQueue<>();

	ReactiveBatchedRenewalTests() {
		this.engine.setLockLostListener(this.lost::add);
	}

	@AfterEach
	void shutDown() {
		this.store.unblock();
		this.engine.destroy();
	}

	@Test
	void manyHoldsAreRenewedInFewCalls() {
		List<ReactiveLockHandle> handles = lockAll();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.store.renewedKeys.size() == HOLDS);
		assertThat(this.store.singleExtends).hasValue(0);
		assertThat(this.store.largestBatch).hasValueGreaterThanOrEqualTo(HOLDS / 2);
		assertThat(handles).allMatch(ReactiveLockHandle::isHeld);
		handles.forEach((handle) -> handle.release().block(BOUND));
		assertThat(this.engine.locksLost()).isZero();
		assertThat(this.lost).isEmpty();
	}

	@Test
	void aHoldTheStoreNoLongerHasIsLostAloneInItsBatch() {
		List<ReactiveLockHandle> handles = lockAll();
		String gone = this.store.key("lock-7");
		this.store.notOwned.add(gone);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.store.renewedKeys.size() == HOLDS);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.lost.size() == 1);
		assertThat(this.lost).singleElement()
			.satisfies((loss) -> assertThat(loss.lockId()).isEqualTo("lock-7"))
			.satisfies((loss) -> assertThat(loss.reason()).contains("when its lease was renewed"));
		for (int i = 0; i < HOLDS; i++) {
			assertThat(handles.get(i).isHeld()).as("lock-" + i).isEqualTo(i != 7);
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> handles.get(7).release().block(BOUND));
		handles.stream().filter(ReactiveLockHandle::isHeld).forEach((handle) -> handle.release().block(BOUND));
		assertThat(this.engine.locksLost()).isEqualTo(1);
	}

	@Test
	void anUnknownReplyIsRetriedForItsHoldAlone() {
		List<ReactiveLockHandle> handles = lockAll();
		String failing = this.store.key("lock-11");
		this.store.unknownOnce.add(failing);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.store.renewedKeys.size() == HOLDS);
		// The retry of that hold alone goes through extend.
		await().atMost(Duration.ofSeconds(5)).until(() -> this.store.singleExtends.get() >= 1);
		assertThat(handles).allMatch(ReactiveLockHandle::isHeld);
		handles.forEach((handle) -> handle.release().block(BOUND));
		assertThat(this.lost).isEmpty();
	}

	/**
	 * A hold's lease commands run one after the other: an {@code extend} sent while its
	 * batch hangs waits for the batch, and its lease (shorter here) is the one that
	 * stays.
	 */
	@Test
	void anExtendDuringABatchIsSentAfterIt() throws Exception {
		this.store.block();
		List<ReactiveLockHandle> handles = lockAll();
		assertThat(this.store.blocked.await(20, TimeUnit.SECONDS)).isTrue();
		int inBatch = IntStream.range(0, HOLDS)
			.filter((i) -> this.store.blockedKeys.contains(this.store.key("lock-" + i)))
			.findFirst()
			.orElseThrow();
		CompletableFuture<Boolean> reply = handles.get(inBatch).extend(Duration.ofSeconds(2)).toFuture();
		assertThat(this.store.singleExtends).hasValue(0);
		assertThat(reply).isNotDone();
		this.store.unblock();
		assertThat(reply.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.store.singleExtends).hasValue(1);
		assertThat(this.store.remainingLeaseMillis(this.store.key("lock-" + inBatch))).isBetween(1L, 2_000L);
		handles.forEach((handle) -> handle.release().block(BOUND));
		assertThat(this.lost).isEmpty();
	}

	/**
	 * An {@code extend} sent while a renewal waits for its reply starts a new renewal
	 * generation: the renewal's reply, which comes first, must not schedule another
	 * renewal beside the extend's. Before renewal generations it did, and the hold kept
	 * two renewal chains for as long as it was held.
	 */
	@Test
	void anExtendRacingARenewalLeavesOneRenewalScheduled() throws Exception {
		TimerRecordingRuntime runtime = new TimerRecordingRuntime();
		ExtendHoldingStore slow = new ExtendHoldingStore();
		ReactiveLockEngine shortLeases = new ReactiveLockEngine(slow, Duration.ofMillis(300), runtime);
		try {
			ReactiveLockHandle handle = shortLeases.tryLock("racing", Duration.ZERO, null).block(BOUND);
			assertThat(handle).isNotNull();
			slow.holdNext = true;
			assertThat(slow.held.await(BOUND.toSeconds(), TimeUnit.SECONDS)).as("renewal sent").isTrue();
			CompletableFuture<Boolean> extended = handle.extend(Duration.ofMillis(300)).toFuture();
			slow.answer.countDown();
			assertThat(extended.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isTrue();
			// One hold renewed every 100 ms: one renewal waits on the timer at a time.
			await().during(Duration.ofMillis(600)).atMost(BOUND).until(() -> runtime.timer.get().pending() <= 1);
			handle.release().block(BOUND);
			assertThat(shortLeases.locksLost()).isZero();
		}
		finally {
			slow.answer.countDown();
			shortLeases.destroy();
		}
	}

	private List<ReactiveLockHandle> lockAll() {
		List<ReactiveLockHandle> handles = new ArrayList<>();
		for (int i = 0; i < HOLDS; i++) {
			handles.add(this.engine.tryLock("lock-" + i, Duration.ZERO, null).block(BOUND));
		}
		return handles;
	}

	/** Holds the first {@code extend} after {@link #holdNext} until {@link #answer}. */
	private static final class ExtendHoldingStore extends ForwardingLockStore {

		final CountDownLatch held = new CountDownLatch(1);

		final CountDownLatch answer = new CountDownLatch(1);

		volatile boolean holdNext;

		ExtendHoldingStore() {
			super(new InMemoryLockStore());
		}

		@Override
		public ExtendReply extend(String key, String owner, long leaseMillis) {
			if (this.holdNext) {
				this.holdNext = false;
				this.held.countDown();
				try {
					this.answer.await(BOUND.toSeconds(), TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return super.extend(key, owner, leaseMillis);
		}

	}

	/** The system's runtime, keeping the reactive engine's timer. */
	private static final class TimerRecordingRuntime implements EngineRuntime {

		final AtomicReference<TaskPool> timer = new AtomicReference<>();

		@Override
		public long nanoTime() {
			return EngineRuntime.system().nanoTime();
		}

		@Override
		public void park(Object blocker, long nanos) {
			EngineRuntime.system().park(blocker, nanos);
		}

		@Override
		public void unpark(Thread thread) {
			EngineRuntime.system().unpark(thread);
		}

		@Override
		public TaskPool newTaskPool(String name, int threads, boolean endWhenIdle) {
			TaskPool pool = EngineRuntime.system().newTaskPool(name, threads, endWhenIdle);
			if (name.endsWith("-timer")) {
				this.timer.set(pool);
			}
			return pool;
		}

		@Override
		public long jitter(long bound) {
			return EngineRuntime.system().jitter(bound);
		}

		@Override
		public String newOwnerToken() {
			return EngineRuntime.system().newOwnerToken();
		}

	}

}
