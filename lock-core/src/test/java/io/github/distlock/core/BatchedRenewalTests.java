package io.github.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.NotOwned;
import io.github.distlock.store.Unknown;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The watchdog renews locks with long leases in batches ({@link RenewalSweep},
 * {@link RenewalBatch}), over an {@link InMemoryLockStore} that records them, with the
 * guarantees of renewing one lock at a time: each lock answered and lost on its own, a
 * failed reply retried for its lock alone, and a batch whose reply does not come loses
 * each lock when its lease runs out, not when the call returns.
 */
class BatchedRenewalTests {

	/** Renewed every 1.5 s: more than two sweep periods, so by the sweep. */
	private static final Duration LEASE = Duration.ofMillis(4_500);

	private static final int LOCKS = 200;

	private final RecordingStore store = new RecordingStore(new InMemoryLockStore());

	private final LockEngine engine = new LockEngine(this.store, LEASE);

	private final Queue<LostLock> lost = new ConcurrentLinkedQueue<>();

	BatchedRenewalTests() {
		this.engine.setLockLostListener(this.lost::add);
	}

	@AfterEach
	void shutDown() {
		this.store.unblock();
		this.engine.destroy();
	}

	@Test
	void manyLocksAreRenewedInFewCalls() {
		List<LockHandle> handles = lockAll();
		await().atMost(Duration.ofSeconds(20)).until(() -> this.store.renewedKeys.size() == LOCKS);
		assertThat(this.store.singleExtends).hasValue(0);
		assertThat(this.store.largestBatch).hasValueGreaterThanOrEqualTo(LOCKS / 2);
		assertThat(handles).allMatch(LockHandle::isHeld);
		handles.forEach(LockHandle::close);
		assertThat(this.engine.locksLost()).isZero();
		assertThat(this.lost).isEmpty();
	}

	/**
	 * Most locks are released long before their first renewal: they must leave the sweep
	 * then, not when their bucket comes due (at a third of the lease), else an instance
	 * acquiring thousands of distinct ids a second keeps every lock of the last 20 s.
	 */
	@Test
	void releasedLocksLeaveTheSweepBeforeTheirRenewalIsDue() {
		// First renewals due in 20 s, long after 20,000 acquisitions were made and
		// released.
		LockEngine longLeases = new LockEngine(this.store, Duration.ofSeconds(60));
		try {
			List<LockHandle> held = new ArrayList<>();
			long startedAt = System.nanoTime();
			for (int i = 0; i < 20_000; i++) {
				LockHandle handle = longLeases.lock("id-" + i, Duration.ZERO);
				if (i % 100 == 0) {
					held.add(handle);
				}
				else {
					handle.close();
				}
			}
			// A bucket (a sweep period of first renewals) drops its released locks once
			// at
			// least MIN_DROP of them left and they outnumber those still in it; on a
			// loaded machine the acquisitions spread over more buckets, each of which may
			// keep fewer than MIN_DROP released ones.
			long buckets = (System.nanoTime() - startedAt) / RenewalSweep.SWEEP_NANOS + 2;
			long bound = Math.max(2_000, buckets * RenewalSweep.MIN_DROP + 2 * held.size());
			assertThat(bound).as("the bound is below the 20,000 locks acquired").isLessThan(20_000);
			await().atMost(Duration.ofSeconds(10)).until(() -> longLeases.sweepEntries() <= bound);
			// The 200 held locks stay, each waiting for its renewal by the sweep.
			await().atMost(Duration.ofSeconds(10)).until(() -> longLeases.pendingRenewalTasks() == held.size());
			assertThat(longLeases.sweepEntries()).isGreaterThanOrEqualTo(held.size());
			assertThat(this.store.renewedKeys).isEmpty();
			held.forEach(LockHandle::close);
			assertThat(longLeases.locksLost()).isZero();
		}
		finally {
			longLeases.destroy();
		}
	}

	@Test
	void aLockTheStoreNoLongerHasIsLostAloneInItsBatch() {
		List<LockHandle> handles = lockAll();
		String gone = this.store.key("lock-7");
		this.store.notOwned.add(gone);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.store.renewedKeys.size() == LOCKS);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.lost.size() == 1);
		assertThat(this.lost).singleElement()
			.satisfies((loss) -> assertThat(loss.lockId()).isEqualTo("lock-7"))
			.satisfies((loss) -> assertThat(loss.reason()).contains("renewal found the lock key expired"));
		for (int i = 0; i < LOCKS; i++) {
			assertThat(handles.get(i).isHeld()).as("lock-" + i).isEqualTo(i != 7);
		}
		assertThatThrownBy(handles.get(7)::close).isInstanceOf(LockLostException.class);
		handles.stream().filter(LockHandle::isHeld).forEach(LockHandle::close);
		assertThat(this.engine.locksLost()).isEqualTo(1);
	}

	@Test
	void anUnknownReplyIsRetriedForItsLockAlone() {
		List<LockHandle> handles = lockAll();
		String failing = this.store.key("lock-11");
		this.store.unknownOnce.add(failing);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.store.renewedKeys.size() == LOCKS);
		// The retry of that lock alone goes through extend.
		await().atMost(Duration.ofSeconds(5)).until(() -> this.store.singleExtends.get() >= 1);
		assertThat(this.engine.renewalFailures()).isEqualTo(1);
		assertThat(handles).allMatch(LockHandle::isHeld);
		handles.forEach(LockHandle::close);
		assertThat(this.lost).isEmpty();
	}

	@Test
	void aBatchWithoutReplyLosesEachLockWhenItsLeaseRunsOut() throws Exception {
		this.store.block();
		List<LockHandle> handles = lockAll();
		assertThat(this.store.blocked.await(20, TimeUnit.SECONDS)).isTrue();
		// While the call hangs, every lock of the batch is reported lost at its deadline.
		await().atMost(Duration.ofSeconds(20)).until(() -> handles.stream().noneMatch(LockHandle::isHeld));
		await().atMost(Duration.ofSeconds(5)).until(() -> this.lost.size() == LOCKS);
		assertThat(this.lost).allSatisfy((loss) -> assertThat(loss.reason()).contains("renewal"));
		this.store.unblock();
		for (LockHandle handle : handles) {
			assertThatThrownBy(handle::close).isInstanceOf(LockLostException.class);
		}
	}

	/**
	 * An {@code extend} that waits for the lease lock of a batch in flight runs when the
	 * batch frees it, before the batch schedules that lock's next renewal: the batch's
	 * renewal, of the generation before the extend, must not overwrite the extend's, or
	 * nothing renews the lock again and it expires without a loss being reported (issue
	 * 39, 1: 585 of 600 locks before the fix).
	 */
	@Test
	void anExtendWaitingForItsBatchKeepsTheLockRenewed() throws Exception {
		List<LockHandle> handles = lockAll(600);
		this.store.block();
		assertThat(this.store.blocked.await(20, TimeUnit.SECONDS)).isTrue();
		List<LockHandle> inFlight = handles.stream()
			.filter((handle) -> this.store.blockedKeys.contains(this.store.key(handle.lockId())))
			.toList();
		assertThat(inFlight).isNotEmpty();
		List<Thread> extending = new ArrayList<>();
		Queue<Boolean> extended = new ConcurrentLinkedQueue<>();
		for (LockHandle handle : inFlight) {
			Thread thread = new Thread(() -> extended.add(handle.extend(LEASE)));
			thread.start();
			extending.add(thread);
		}
		// Each waits for the lease lock the batch holds.
		await().atMost(Duration.ofSeconds(5))
			.until(() -> extending.stream().allMatch((thread) -> thread.getState() == Thread.State.TIMED_WAITING));
		this.store.unblock();
		for (Thread thread : extending) {
			thread.join(TimeUnit.SECONDS.toMillis(10));
		}
		assertThat(extended).hasSize(inFlight.size()).containsOnly(true);
		Map<String, Integer> renewalsAfterExtend = new HashMap<>();
		inFlight.forEach((handle) -> renewalsAfterExtend.put(handle.lockId(), this.store.renewals(handle.lockId())));
		// Renewed every 1.5 s from the extend on: each is renewed again well within 10 s.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(inFlight).as("locks not renewed since their extend")
				.allMatch((handle) -> this.store.renewals(handle.lockId()) > renewalsAfterExtend.get(handle.lockId())));
		assertThat(handles).allMatch(LockHandle::isHeld);
		assertThat(this.lost).isEmpty();
		handles.forEach(LockHandle::close);
	}

	@Test
	void aRenewalOfAnOlderGenerationDoesNotOverwriteANewerOne() {
		RenewalSweep.DueTime due = new RenewalSweep.DueTime();
		assertThat(due.set(2_000, 2)).isTrue();
		assertThat(due.set(1_000, 1)).isFalse();
		assertThat(due.claim(1_500)).isEqualTo(-1);
		assertThat(due.claim(2_000)).isEqualTo(2);
	}

	private List<LockHandle> lockAll() {
		return lockAll(LOCKS);
	}

	private List<LockHandle> lockAll(int locks) {
		List<LockHandle> handles = new ArrayList<>();
		for (int i = 0; i < locks; i++) {
			handles.add(this.engine.lock("lock-" + i, Duration.ZERO));
		}
		return handles;
	}

	/**
	 * Records renewals; answers {@link NotOwned} for the keys in {@link #notOwned},
	 * {@link Unknown} once for those in {@link #unknownOnce}, and holds every batch until
	 * {@link #unblock()} after {@link #block()}.
	 */
	static final class RecordingStore extends ForwardingLockStore {

		final Set<String> renewedKeys = ConcurrentHashMap.newKeySet();

		/** Renewals by the sweep's batches, by key. */
		final Map<String, AtomicInteger> batchRenewals = new ConcurrentHashMap<>();

		final Set<String> notOwned = ConcurrentHashMap.newKeySet();

		final Set<String> unknownOnce = ConcurrentHashMap.newKeySet();

		final AtomicInteger singleExtends = new AtomicInteger();

		final AtomicInteger largestBatch = new AtomicInteger();

		final CountDownLatch blocked = new CountDownLatch(1);

		/** The keys of the batches held by {@link #block()}. */
		final Set<String> blockedKeys = ConcurrentHashMap.newKeySet();

		private final CountDownLatch release = new CountDownLatch(1);

		private volatile boolean blocking;

		RecordingStore(InMemoryLockStore delegate) {
			super(delegate);
		}

		/** How often the sweep's batches renewed the lock {@code lockId}. */
		int renewals(String lockId) {
			AtomicInteger renewals = this.batchRenewals.get(key(lockId));
			return (renewals != null) ? renewals.get() : 0;
		}

		void block() {
			this.blocking = true;
		}

		void unblock() {
			this.release.countDown();
		}

		@Override
		public ExtendReply extend(String key, String owner, long leaseMillis) {
			this.singleExtends.incrementAndGet();
			return super.extend(key, owner, leaseMillis);
		}

		@Override
		public List<ExtendReply> extendAll(List<LeaseReset> resets) {
			this.largestBatch.accumulateAndGet(resets.size(), Math::max);
			if (this.blocking) {
				resets.forEach((reset) -> this.blockedKeys.add(reset.key()));
				this.blocked.countDown();
				try {
					this.release.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			List<ExtendReply> replies = new ArrayList<>();
			for (LeaseReset reset : resets) {
				this.renewedKeys.add(reset.key());
				this.batchRenewals.computeIfAbsent(reset.key(), (key) -> new AtomicInteger()).incrementAndGet();
				if (this.notOwned.contains(reset.key())) {
					replies.add(NotOwned.INSTANCE);
				}
				else if (this.unknownOnce.remove(reset.key())) {
					replies.add(new Unknown(new IllegalStateException("no reply")));
				}
				else {
					replies.add(delegate().extend(reset.key(), reset.owner(), reset.leaseMillis()));
				}
			}
			return replies;
		}

	}

}
