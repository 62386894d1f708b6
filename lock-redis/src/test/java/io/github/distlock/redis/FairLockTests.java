package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Fair locks ({@link LockService#fair()}) on two instances sharing one real
 * {@code redis-server}: first come, first served across instances and threads, grants to
 * waiters that gave up or died, fencing tokens of granted waiters.
 */
class FairLockTests {

	private static final String LOCK_ID = "fair";

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final String key = new LockKeys(RedisLockSettings.defaults().keyPrefix()).lockKey(LOCK_ID);

	@Test
	void waitersOfTwoInstancesGetTheLockInTheOrderTheyAskedForIt() throws Exception {
		LockService[] instances = { this.clients.newService().fair(), this.clients.newService().fair() };
		int rounds = 20;
		int waiters = 6;
		int outOfOrder = 0;
		int tokensNotIncreasing = 0;
		for (int round = 0; round < rounds; round++) {
			LockHandle holder = instances[round % 2].lock(LOCK_ID, Duration.ofSeconds(10));
			List<Integer> order = Collections.synchronizedList(new ArrayList<>());
			List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
			AtomicReference<Throwable> failure = new AtomicReference<>();
			List<Thread> threads = new ArrayList<>();
			for (int i = 0; i < waiters; i++) {
				int waiter = i;
				// Alternating instances, three threads each.
				LockService instance = instances[(round + i) % 2];
				Thread thread = new Thread(() -> {
					try (LockHandle held = instance.lock(LOCK_ID, Duration.ofSeconds(30))) {
						order.add(waiter);
						tokens.add(held.fencingToken());
					}
					catch (Throwable ex) {
						failure.compareAndSet(null, ex);
					}
				}, "fair-" + round + "-" + i);
				thread.start();
				threads.add(thread);
				// Queued in Redis before the next one asks.
				await().atMost(Duration.ofSeconds(10)).until(() -> queued() == waiter + 1);
			}
			long holderToken = holder.fencingToken();
			holder.close();
			for (Thread thread : threads) {
				thread.join(TimeUnit.SECONDS.toMillis(30));
				assertThat(thread.isAlive()).as(thread.getName() + " finished").isFalse();
			}
			assertThat(failure.get()).isNull();
			if (!order.equals(IntStream.range(0, waiters).boxed().toList())) {
				outOfOrder++;
				System.out.println("[fair-fifo] round " + round + " out of order: " + order);
			}
			long last = holderToken;
			for (long token : tokens) {
				if (token <= last) {
					tokensNotIncreasing++;
				}
				last = token;
			}
		}
		System.out.printf("[fair-fifo] %d rounds x %d waiters (alternating between 2 instances, 3 threads each):"
				+ " %d acquisitions, rounds out of arrival order: %d, fencing tokens not greater than the"
				+ " predecessor's: %d%n", rounds, waiters, rounds * waiters, outOfOrder, tokensNotIncreasing);
		assertThat(outOfOrder).isZero();
		assertThat(tokensNotIncreasing).isZero();
		assertThat(redis.command("EXISTS", LockKeys.waitingKey(this.key))).isEqualTo("0");
	}

	@Test
	void aWaiterThatTimesOutLeavesTheQueueAndTheReleaseFreesTheLock() {
		LockService first = this.clients.newService().fair();
		LockService second = this.clients.newService().fair();
		int iterations = 10;
		int leftQueued = 0;
		int grantedToTheGoneWaiter = 0;
		for (int i = 0; i < iterations; i++) {
			LockHandle holder = first.lock(LOCK_ID, Duration.ofSeconds(10));
			assertThat(second.tryLock(LOCK_ID, Duration.ofMillis(100), null)).isEmpty();
			if (queued() != 0) {
				leftQueued++;
			}
			holder.close();
			if (first.isLocked(LOCK_ID)) {
				grantedToTheGoneWaiter++;
			}
		}
		System.out.printf("[fair-timeout] %d waiters timed out: still queued afterwards %d, lock granted to the gone"
				+ " waiter at the next release %d%n", iterations, leftQueued, grantedToTheGoneWaiter);
		assertThat(leftQueued).isZero();
		assertThat(grantedToTheGoneWaiter).isZero();
	}

	private static final long DEAD_LEASE_MILLIS = 2000;

	@Test
	void aGrantToAWaiterThatDiedWhileQueuedEndsWithTheLeaseItAskedForAndTheNextWaiterGetsTheLock() throws Exception {
		LockService first = this.clients.newService().fair();
		LockService second = this.clients.newService().fair();
		// An instance that queued and died: nobody withdraws its entry or claims a grant.
		// Its grant carries the lease it asked for, here 2 s; a dead holder's lock would
		// as well.
		RedisLockStore deadInstance = new RedisLockStore(new StringRedisTemplate(this.clients.newConnectionFactory()),
				RedisLockSettings.defaults());
		int iterations = 3;
		long longestMillis = 0;
		for (int i = 0; i < iterations; i++) {
			LockHandle holder = first.lock(LOCK_ID, Duration.ofSeconds(10));
			assertThat(deadInstance.acquireFair(this.key, "dead" + i, DEAD_LEASE_MILLIS, 60_000))
				.isInstanceOf(HeldByOther.class);
			AtomicLong acquiredAt = new AtomicLong();
			AtomicLong token = new AtomicLong();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			Thread next = new Thread(() -> {
				try {
					Optional<LockHandle> handle = second.tryLock(LOCK_ID, Duration.ofSeconds(20), null);
					acquiredAt.set(System.nanoTime());
					handle.ifPresent((held) -> {
						token.set(held.fencingToken());
						held.close();
					});
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}, "fair-next");
			next.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> queued() == 2);
			long releasedAt = System.nanoTime();
			holder.close();
			// Granted to the dead waiter, for no longer than the lease it asked for.
			assertThat(deadInstance.remainingLeaseMillis(this.key)).isBetween(0L, DEAD_LEASE_MILLIS);
			next.join(TimeUnit.SECONDS.toMillis(30));
			assertThat(next.isAlive()).isFalse();
			assertThat(failure.get()).isNull();
			assertThat(token.get()).as("the next waiter's fencing token").isGreaterThan(holder.fencingToken());
			longestMillis = Math.max(longestMillis, TimeUnit.NANOSECONDS.toMillis(acquiredAt.get() - releasedAt));
		}
		System.out.printf(
				"[fair-dead-waiter] %d grants to a waiter that died while queued; the next waiter got the"
						+ " lock at most %d ms after the release (the dead waiter's lease %d ms)%n",
				iterations, longestMillis, DEAD_LEASE_MILLIS);
		deadInstance.close();
	}

	@Test
	void fairAndUnfairAcquisitionsOfOneIdExcludeEachOther() {
		LockService service = this.clients.newService();
		LockService other = this.clients.newService();
		try (LockHandle held = service.fair().lock(LOCK_ID, Duration.ofSeconds(10))) {
			assertThat(other.tryLock(LOCK_ID, Duration.ZERO, null)).isEmpty();
			assertThat(other.fair().tryLock(LOCK_ID, Duration.ZERO, null)).isEmpty();
			assertThat(other.isLocked(LOCK_ID)).isTrue();
		}
		assertThat(other.fair().tryLock(LOCK_ID, Duration.ZERO, null)).hasValueSatisfying(LockHandle::close);
	}

	/** Live queue entries: the waiting hash (withdrawn and granted ones are removed). */
	private int queued() {
		return Integer.parseInt(redis.command("HLEN", LockKeys.waitingKey(this.key)));
	}

}
