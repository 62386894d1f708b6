package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.HandOverReply;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Released;
import io.github.distlock.testsupport.RedisServerExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances, each with four threads queued for one lock, on one real
 * {@code redis-server}. While the other instance has a waiter, an instance keeps the lock
 * for its own waiters a few critical sections in a row (one from Redis and 8 local
 * hand-overs: a turn of 9), then frees it for the other instance, and wins it back only
 * if the other instance's waiter was too slow to take it (its attempt is then turned
 * away), for one critical section per such lost race. So a run of one instance while the
 * other has a waiter is at most 9, plus one per attempt of the other's turned away
 * meanwhile, plus the hand-overs that found the lock wanted by nobody elsewhere (the
 * other instance's waiter had not asked since), plus a turn per release without a
 * hand-over (no local waiter was ready, so the next local thread starts a turn of its
 * own).
 * <p>
 * Before the fix, the instance that freed the lock usually won it back at once, with a
 * turn of 9 more each time: 55 and 95 acquisitions beyond that bound in two runs.
 */
class CrossInstanceFairnessTests {

	/** The engine's local hand-overs in a row while the lock is wanted elsewhere, + 1. */
	private static final int TURN = 8 + 1;

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void anInstanceKeepsTheLockAFewCriticalSectionsInARowWhileTheOtherWaits() throws Exception {
		AtomicInteger[] turnedAway = { new AtomicInteger(), new AtomicInteger() };
		AtomicInteger[] notWanted = { new AtomicInteger(), new AtomicInteger() };
		AtomicInteger[] released = { new AtomicInteger(), new AtomicInteger() };
		LockEngine[] instances = { instance(turnedAway[0], notWanted[0], released[0]),
				instance(turnedAway[1], notWanted[1], released[1]) };
		int threadsPerInstance = 4;
		int acquisitions = 2000;
		String lockId = "fairness";
		AtomicInteger[] waiting = { new AtomicInteger(), new AtomicInteger() };
		AtomicInteger remaining = new AtomicInteger(acquisitions);
		AtomicInteger notAcquired = new AtomicInteger();
		AtomicReference<Throwable> failure = new AtomicReference<>();
		Runs runs = new Runs(turnedAway, notWanted, released);
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		try {
			for (int i = 0; i < 2 * threadsPerInstance; i++) {
				int instance = i % 2;
				Thread thread = new Thread(() -> {
					try {
						start.await();
						while (remaining.get() > 0) {
							waiting[instance].incrementAndGet();
							Optional<LockHandle> handle;
							try {
								handle = instances[instance].tryLock(lockId, Duration.ofSeconds(30), null);
							}
							finally {
								waiting[instance].decrementAndGet();
							}
							if (handle.isEmpty()) {
								notAcquired.incrementAndGet();
								continue;
							}
							try (LockHandle held = handle.get()) {
								if (remaining.getAndDecrement() > 0) {
									runs.taken(instance, waiting[1 - instance].get() > 0);
									// The critical section's work.
									LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000, 300_000));
								}
							}
						}
					}
					catch (Throwable ex) {
						failure.compareAndSet(null, ex);
					}
				}, "fairness-" + (char) ('a' + instance) + "-" + i);
				threads.add(thread);
				thread.start();
			}
			start.countDown();
			for (Thread thread : threads) {
				thread.join(TimeUnit.MINUTES.toMillis(2));
				assertThat(thread.isAlive()).as(thread.getName() + " finished").isFalse();
			}
		}
		finally {
			for (LockEngine instance : instances) {
				instance.destroy();
			}
		}
		runs.ended();
		System.out.printf("[cross-instance-fairness] %d acquisitions by %d+%d threads: instance A %d, instance B %d;"
				+ " longest run of one instance while the other had a waiter: %d; most acquisitions in a run beyond"
				+ " a turn of %d + one per attempt of the other's turned away + hand-overs nobody elsewhere wanted: %d;"
				+ " attempts turned away: A %d, B %d; hand-overs nobody elsewhere wanted: A %d, B %d;"
				+ " releases without a hand-over: A %d, B %d; not acquired %d%n", acquisitions, threadsPerInstance,
				threadsPerInstance, runs.taken[0], runs.taken[1], runs.longest, TURN, runs.mostBeyondTurn,
				turnedAway[0].get(), turnedAway[1].get(), notWanted[0].get(), notWanted[1].get(), released[0].get(),
				released[1].get(), notAcquired.get());
		assertThat(failure.get()).isNull();
		assertThat(notAcquired).hasValue(0);
		assertThat(runs.taken[0] + runs.taken[1]).isEqualTo(acquisitions);
		assertThat(runs.mostBeyondTurn).as("acquisitions in a run beyond its turns of %d and the lost races", TURN)
			.isLessThanOrEqualTo(0);
	}

	private LockEngine instance(AtomicInteger turnedAway, AtomicInteger notWanted, AtomicInteger released) {
		RedisLockStore store = new RedisLockStore(new StringRedisTemplate(this.clients.newConnectionFactory()),
				RedisLockSettings.defaults());
		return new LockEngine(new CountingStore(store, turnedAway, notWanted, released),
				RedisLockSettings.defaults().leaseTime());
	}

	/**
	 * Runs of acquisitions by one instance while the other had a waiter; changed only by
	 * the holder of the lock, and at the end.
	 */
	private static final class Runs {

		final int[] taken = new int[2];

		private final AtomicInteger[] turnedAway;

		private final AtomicInteger[] notWanted;

		private final AtomicInteger[] released;

		private int instance = -1;

		private int length;

		private int turnedAwayAtStart;

		private int notWantedAtStart;

		private int releasedAtStart;

		int longest;

		int mostBeyondTurn = Integer.MIN_VALUE;

		Runs(AtomicInteger[] turnedAway, AtomicInteger[] notWanted, AtomicInteger[] released) {
			this.turnedAway = turnedAway;
			this.notWanted = notWanted;
			this.released = released;
		}

		void taken(int instance, boolean otherWaits) {
			this.taken[instance]++;
			if (this.instance == instance && otherWaits) {
				this.length++;
				return;
			}
			ended();
			this.instance = instance;
			this.length = otherWaits ? 1 : 0;
			this.turnedAwayAtStart = this.turnedAway[1 - instance].get();
			this.notWantedAtStart = this.notWanted[instance].get();
			this.releasedAtStart = this.released[instance].get();
		}

		/**
		 * The run ended: the other instance took the lock or had no waiter left, so its
		 * attempts turned away during the run have all been counted.
		 */
		void ended() {
			if (this.instance < 0) {
				return;
			}
			int lostRaces = this.turnedAway[1 - this.instance].get() - this.turnedAwayAtStart;
			int notWanted = this.notWanted[this.instance].get() - this.notWantedAtStart;
			// A release without a hand-over (no local waiter was ready) lets the next
			// local thread start a turn of its own.
			int turns = 1 + this.released[this.instance].get() - this.releasedAtStart;
			this.longest = Math.max(this.longest, this.length);
			this.mostBeyondTurn = Math.max(this.mostBeyondTurn, this.length - TURN * turns - lostRaces - notWanted);
		}

	}

	/**
	 * Counts, for one instance, the acquire attempts that found the lock held elsewhere,
	 * the hand-overs that were allowed to free the lock for other instances but found it
	 * not wanted elsewhere (nobody there had asked since it was last taken), and the
	 * releases without a hand-over.
	 */
	private static final class CountingStore extends ForwardingLockStore {

		private final AtomicInteger turnedAway;

		private final AtomicInteger notWanted;

		private final AtomicInteger released;

		CountingStore(LockStore store, AtomicInteger turnedAway, AtomicInteger notWanted, AtomicInteger released) {
			super(store);
			this.turnedAway = turnedAway;
			this.notWanted = notWanted;
			this.released = released;
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis) {
			return countRefusal(super.acquire(key, owner, leaseMillis));
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
			return countRefusal(super.acquire(key, owner, leaseMillis, waitMillis));
		}

		private AcquireReply countRefusal(AcquireReply reply) {
			if (reply instanceof HeldByOther) {
				this.turnedAway.incrementAndGet();
			}
			return reply;
		}

		@Override
		public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis,
				boolean mayStayLocal) {
			return countStayed(mayStayLocal, super.handOver(key, owner, newOwner, leaseMillis, mayStayLocal));
		}

		@Override
		public HandOverReply handOver(String key, String owner, String newOwner, long leaseMillis, boolean mayStayLocal,
				@Nullable String newOwnerQueuedAs) {
			return countStayed(mayStayLocal,
					super.handOver(key, owner, newOwner, leaseMillis, mayStayLocal, newOwnerQueuedAs));
		}

		private HandOverReply countStayed(boolean mayStayLocal, HandOverReply reply) {
			if (!mayStayLocal && reply instanceof Acquired) {
				this.notWanted.incrementAndGet();
			}
			return reply;
		}

		@Override
		public ReleaseReply release(String key, String owner) {
			ReleaseReply reply = super.release(key, owner);
			if (reply instanceof Released) {
				this.released.incrementAndGet();
			}
			return reply;
		}

	}

}
