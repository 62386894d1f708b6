package io.github.distlock.store;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link LockStore} contract, as its Javadoc states it, for every store: a subclass
 * creates the store and makes leases and the store's memory of a key run out.
 */
public abstract class LockStoreContractTests {

	/** A lease no test outlives. */
	protected static final long LONG_LEASE = 60_000;

	private static final long NOTIFICATION_WAIT_SECONDS = 10;

	protected LockStore store;

	private String key;

	/**
	 * A store for one test, with no locks held; Redis-backed stores start from an empty
	 * server.
	 * @return the store
	 */
	protected abstract LockStore createStore();

	/**
	 * Makes the lease of the current holder of {@code key} run out (the holder does not
	 * release).
	 * @param key the lock's key
	 */
	protected abstract void letLeaseRunOut(String key);

	/**
	 * Makes the lease of {@code key} and the store's memory of it (the fencing retention)
	 * run out, as they do after the retention has passed.
	 * @param key the lock's key
	 */
	protected abstract void forgetKey(String key);

	@BeforeEach
	void createStoreAndKey() {
		this.store = createStore();
		this.key = this.store.key("contract");
	}

	@Test
	void keysArePureAndDistinct() {
		assertThat(this.store.key("orders:42")).isEqualTo(this.store.key("orders:42"));
		List<String> ids = List.of("a", "b", "A", "a ", "a{b}", "a%7Bb%7D", "#a", "a:fence", "x".repeat(300),
				"x".repeat(301));
		assertThat(ids.stream().map(this.store::key)).doesNotHaveDuplicates();
	}

	@Test
	void aFreeLockIsAcquiredWithAPositiveFencingToken() {
		assertThat(acquired(owner(), LONG_LEASE)).isPositive();
	}

	@Test
	void aTokenLeftForTheReadIsIssuedToTheHolderOnlyAndIncreases() {
		String holder = owner();
		AcquireReply reply = this.store.acquire(this.key, holder, LONG_LEASE);
		assertThat(reply).isInstanceOf(Acquired.class);
		Assumptions.assumeTrue(((Acquired) reply).tokenOnRead(), "the store issues tokens with every acquisition");
		long first = FencingTokens.read(this.store, this.key, holder, reply);
		assertThat(FencingTokens.read(this.store, this.key, holder, reply)).isGreaterThan(first);
		assertThat(this.store.issueFencingToken(this.key, owner())).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.issueFencingToken(this.key, holder)).isEqualTo(NotOwned.INSTANCE);
		String next = owner();
		assertThat(acquired(next, LONG_LEASE)).isGreaterThan(first);
	}

	@Test
	void aHeldLockIsRefusedWithTheHoldersRemainingLease() {
		String holder = owner();
		acquired(holder, 30_000);
		assertThat(this.store.acquire(this.key, owner(), LONG_LEASE)).isInstanceOfSatisfying(HeldByOther.class,
				(refused) -> assertThat(refused.remainingLeaseMillis()).isBetween(1L, 30_000L));
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(1L, 30_000L);
		assertThat(this.store.extend(this.key, holder, LONG_LEASE)).isEqualTo(Extended.INSTANCE);
	}

	@Test
	void theRemainingLeaseOfAFreeLockIsMinusOne() {
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		String owner = owner();
		acquired(owner, LONG_LEASE);
		assertThat(this.store.release(this.key, owner)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void theOwnersReleaseFreesTheLock() {
		String owner = owner();
		acquired(owner, LONG_LEASE);
		assertThat(this.store.release(this.key, owner)).isEqualTo(Released.INSTANCE);
		acquired(owner(), LONG_LEASE);
	}

	@Test
	void anotherOwnersReleaseChangesNothing() {
		String holder = owner();
		acquired(holder, LONG_LEASE);
		assertThat(this.store.release(this.key, owner())).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.acquire(this.key, owner(), LONG_LEASE)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
	}

	@Test
	void aReleaseOfAFreeLockIsNotOwned() {
		assertThat(this.store.release(this.key, owner())).isEqualTo(NotOwned.INSTANCE);
	}

	@Test
	void theOwnersExtendResetsTheLease() {
		String holder = owner();
		acquired(holder, 1_000);
		assertThat(this.store.extend(this.key, holder, LONG_LEASE)).isEqualTo(Extended.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isGreaterThan(1_000);
		assertThat(this.store.extend(this.key, holder, 1_000)).isEqualTo(Extended.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(1L, 1_000L);
	}

	@Test
	void anotherOwnersExtendChangesNothing() {
		String holder = owner();
		acquired(holder, 1_000);
		assertThat(this.store.extend(this.key, owner(), LONG_LEASE)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(1L, 1_000L);
		assertThat(this.store.extend(this.key, owner(), LONG_LEASE)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
	}

	@Test
	void aReplayedExtendAnswersExtended() {
		String holder = owner();
		acquired(holder, LONG_LEASE);
		assertThat(this.store.extend(this.key, holder, LONG_LEASE)).isEqualTo(Extended.INSTANCE);
		assertThat(this.store.extend(this.key, holder, LONG_LEASE)).isEqualTo(Extended.INSTANCE);
	}

	@Test
	void extendAllAnswersEachLockOnItsOwnInOrder() {
		String holder = owner();
		String held = this.store.key("batch-held");
		String taken = this.store.key("batch-taken");
		String free = this.store.key("batch-free");
		assertThat(this.store.acquire(held, holder, 1_000)).isInstanceOf(Acquired.class);
		assertThat(this.store.acquire(taken, owner(), 1_000)).isInstanceOf(Acquired.class);
		List<ExtendReply> replies = this.store.extendAll(List.of(new LeaseReset(held, holder, LONG_LEASE),
				new LeaseReset(taken, holder, LONG_LEASE), new LeaseReset(free, holder, LONG_LEASE)));
		assertThat(replies).containsExactly(Extended.INSTANCE, NotOwned.INSTANCE, NotOwned.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(held)).isGreaterThan(1_000);
		assertThat(this.store.remainingLeaseMillis(taken)).isBetween(1L, 1_000L);
		assertThat(this.store.remainingLeaseMillis(free)).isEqualTo(-1);
	}

	@Test
	void extendAllOfManyLocksRenewsEveryOwnedOneWithItsOwnLease() {
		extendsManyLocks(this.store::extendAll);
	}

	@Test
	void asyncExtendAllOfManyLocksRenewsEveryOwnedOneWithItsOwnLease() {
		AsyncLockStore async = this.store.async(Runnable::run);
		extendsManyLocks((resets) -> async.extendAll(resets).toCompletableFuture().join());
	}

	private void extendsManyLocks(Function<List<LeaseReset>, List<ExtendReply>> extendAll) {
		List<LeaseReset> resets = new ArrayList<>();
		for (int i = 0; i < 130; i++) {
			String key = this.store.key("batch-" + i);
			String holder = owner();
			assertThat(this.store.acquire(key, holder, 1_000)).isInstanceOf(Acquired.class);
			// Every third reset is another owner's: the lock is not renewed.
			resets
				.add(new LeaseReset(key, (i % 3 == 2) ? owner() : holder, (i % 2 == 0) ? LONG_LEASE : 2 * LONG_LEASE));
		}
		List<ExtendReply> replies = extendAll.apply(resets);
		assertThat(replies).hasSize(resets.size());
		for (int i = 0; i < resets.size(); i++) {
			String key = resets.get(i).key();
			if (i % 3 == 2) {
				assertThat(replies.get(i)).as(key).isEqualTo(NotOwned.INSTANCE);
				assertThat(this.store.remainingLeaseMillis(key)).as(key).isBetween(1L, 1_000L);
			}
			else {
				assertThat(replies.get(i)).as(key).isEqualTo(Extended.INSTANCE);
				assertThat(this.store.remainingLeaseMillis(key)).as(key)
					.isBetween((i % 2 == 0) ? 1_000L : LONG_LEASE + 1, (i % 2 == 0) ? LONG_LEASE : 2 * LONG_LEASE);
			}
		}
	}

	@Test
	void aHandOverPassesTheLockWithoutFreeingIt() {
		String holder = owner();
		String successor = owner();
		long first = acquired(holder, LONG_LEASE);
		assertThat(this.store.handOver(this.key, holder, successor, 1_000, true)).isInstanceOfSatisfying(Acquired.class,
				(acquired) -> assertThat(acquired.fencingToken()).isGreaterThan(first));
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(1L, 1_000L);
		assertThat(this.store.acquire(this.key, owner(), LONG_LEASE)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, holder)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.extend(this.key, holder, LONG_LEASE)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, successor)).isEqualTo(Released.INSTANCE);
	}

	@Test
	void anotherOwnersHandOverChangesNothing() {
		String holder = owner();
		acquired(holder, LONG_LEASE);
		String intruder = owner();
		assertThat(this.store.handOver(this.key, owner(), intruder, LONG_LEASE, true)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, intruder)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
	}

	@Test
	void aHandOverOfAFreeLockIsNotOwned() {
		assertThat(this.store.handOver(this.key, owner(), owner(), LONG_LEASE, true)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void anUncontendedLockIsHandedOverAlthoughItMayNotStayLocal() {
		String holder = owner();
		acquired(holder, LONG_LEASE);
		assertThat(this.store.handOver(this.key, holder, owner(), LONG_LEASE, false)).isInstanceOf(Acquired.class);
	}

	@Test
	void aContendedLockThatMayStayLocalIsHandedOver() {
		String holder = owner();
		acquired(holder, LONG_LEASE);
		refused(owner());
		String successor = owner();
		assertThat(this.store.handOver(this.key, holder, successor, LONG_LEASE, true)).isInstanceOf(Acquired.class);
		refused(owner());
		assertThat(this.store.release(this.key, successor)).isEqualTo(Released.INSTANCE);
	}

	@Test
	void aContendedLockThatMayNotStayLocalIsReleasedInsteadOfHandedOver() {
		String holder = owner();
		acquired(holder, LONG_LEASE);
		refused(owner());
		String successor = owner();
		assertThat(this.store.handOver(this.key, holder, successor, LONG_LEASE, false)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		assertThat(this.store.release(this.key, successor)).isEqualTo(NotOwned.INSTANCE);
		// The waiter elsewhere gets it (with a fresh owner token: after a refusal, a
		// store
		// may have released the refused one).
		acquired(owner(), LONG_LEASE);
	}

	@Test
	void fencingTokensIncreaseStrictlyAcrossEveryWayToAcquire() {
		List<Long> tokens = new ArrayList<>();
		String first = owner();
		tokens.add(acquired(first, LONG_LEASE));
		tokens.add(acquired(first, LONG_LEASE)); // replayed acquire
		String second = owner();
		tokens.add(handedOver(first, second));
		tokens.add(handedOver(first, second)); // replayed hand-over
		refused(owner());
		String third = owner();
		tokens.add(handedOver(second, third));
		assertThat(this.store.release(this.key, third)).isEqualTo(Released.INSTANCE);
		String fourth = owner();
		tokens.add(acquired(fourth, LONG_LEASE)); // after release
		letLeaseRunOut(this.key);
		String fifth = owner();
		tokens.add(acquired(fifth, LONG_LEASE)); // after expiry
		forgetKey(this.key);
		tokens.add(acquired(owner(), LONG_LEASE)); // after the store forgot the key
		System.out.println("Fencing tokens of " + getClass().getSimpleName() + ": " + tokens);
		assertThat(tokens).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
	}

	@Test
	void aReplayedAcquireIsAcquiredWithAGreaterTokenAndKeepsTheLockContended() throws Exception {
		String holder = owner();
		long first = acquired(holder, LONG_LEASE);
		refused(owner());
		assertThat(acquired(holder, LONG_LEASE)).isGreaterThan(first);
		refused(owner());
		BlockingQueue<String> released = new LinkedBlockingQueue<>();
		try (ReleaseNotifications notifications = activeSubscription(released)) {
			assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			assertThat(released.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(this.key);
		}
	}

	@Test
	void aReplayedReleaseAnswersReleased() {
		String holder = owner();
		acquired(holder, LONG_LEASE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aReplayedHandOverThatHandedOverAnswersAcquiredWithAGreaterToken() {
		String holder = owner();
		String successor = owner();
		acquired(holder, LONG_LEASE);
		long handedOver = handedOver(holder, successor);
		assertThat(handedOver(holder, successor)).isGreaterThan(handedOver);
		assertThat(this.store.release(this.key, successor)).isEqualTo(Released.INSTANCE);
	}

	@Test
	void aReplayedHandOverThatReleasedAnswersReleased() {
		String holder = owner();
		String successor = owner();
		acquired(holder, LONG_LEASE);
		refused(owner());
		assertThat(this.store.handOver(this.key, holder, successor, LONG_LEASE, false)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.handOver(this.key, holder, successor, LONG_LEASE, false)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aReplayedReleaseAnswersReleasedAlsoAfterOtherOwnersReleased() {
		String first = owner();
		acquired(first, LONG_LEASE);
		assertThat(this.store.release(this.key, first)).isEqualTo(Released.INSTANCE);
		// Up to 16 owners are remembered: the first and 15 more.
		for (int i = 0; i < 15; i++) {
			String other = owner();
			acquired(other, LONG_LEASE);
			assertThat(this.store.release(this.key, other)).isEqualTo(Released.INSTANCE);
		}
		assertThat(this.store.release(this.key, first)).isEqualTo(Released.INSTANCE);
		String seventeenth = owner();
		acquired(seventeenth, LONG_LEASE);
		assertThat(this.store.release(this.key, seventeenth)).isEqualTo(Released.INSTANCE);
		// Forgotten: the documented bound.
		assertThat(this.store.release(this.key, first)).isEqualTo(NotOwned.INSTANCE);
	}

	@Test
	void aLateCopyOfAnAcquireWhoseOwnerEndedTakesNoLock() {
		String released = owner();
		acquired(released, LONG_LEASE);
		assertThat(this.store.release(this.key, released)).isEqualTo(Released.INSTANCE);
		String withdrawn = owner();
		// Its acquisition ended without the lock (it gave up, or its attempt went
		// unanswered): withdrawn with a release.
		assertThat(this.store.release(this.key, withdrawn)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.acquire(this.key, released, LONG_LEASE)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquire(this.key, withdrawn, LONG_LEASE)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		acquired(owner(), LONG_LEASE);
	}

	@Test
	void aLateCopyOfTheHoldersAcquireNeverCutsTheLeaseItExtendedTo() {
		// Found by the simulation (seed 957): a replayed acquire reset the lease to the
		// shorter one first asked for, and the lock ended before its holder's deadline.
		String holder = owner();
		acquired(holder, 1_000);
		assertThat(this.store.extend(this.key, holder, LONG_LEASE)).isEqualTo(Extended.INSTANCE);
		assertThat(this.store.acquire(this.key, holder, 1_000)).isInstanceOf(Acquired.class);
		assertThat(this.store.remainingLeaseMillis(this.key)).isGreaterThan(LONG_LEASE / 2);
		assertThat(this.store.acquire(this.key, holder, 1_000, LONG_LEASE)).isInstanceOf(Acquired.class);
		assertThat(this.store.remainingLeaseMillis(this.key)).isGreaterThan(LONG_LEASE / 2);
	}

	@Test
	void aLeaseThatRanOutFreesTheLockAndItsOwnerOwnsNothing() {
		String holder = owner();
		acquired(holder, LONG_LEASE);
		letLeaseRunOut(this.key);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		assertThat(this.store.extend(this.key, holder, LONG_LEASE)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.handOver(this.key, holder, owner(), LONG_LEASE, true)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(NotOwned.INSTANCE);
		acquired(owner(), LONG_LEASE);
	}

	@Test
	void theReleaseOfAContendedLockReachesEverySubscription() throws Exception {
		BlockingQueue<String> first = new LinkedBlockingQueue<>();
		BlockingQueue<String> second = new LinkedBlockingQueue<>();
		try (ReleaseNotifications one = activeSubscription(first);
				ReleaseNotifications two = activeSubscription(second)) {
			String holder = owner();
			acquired(holder, LONG_LEASE);
			refused(owner());
			assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			assertThat(first.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(this.key);
			assertThat(second.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(this.key);
		}
	}

	@Test
	void aWithdrawalFreesTheLockWithoutAnnouncingItAndEndsTheOwner() throws Exception {
		BlockingQueue<String> released = new LinkedBlockingQueue<>();
		String markerKey = this.store.key("contract-marker");
		try (ReleaseNotifications notifications = activeSubscription(released)) {
			assertThat(notifications.ensureActive(markerKey, deadline())).isTrue();
			String share = owner();
			acquired(share, LONG_LEASE);
			refused(owner());
			assertThat(this.store.withdraw(this.key, share)).isEqualTo(Released.INSTANCE);
			assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
			// A late copy of its acquire changes nothing, as after a release.
			assertThat(this.store.acquire(this.key, share, LONG_LEASE)).isInstanceOf(HeldByOther.class);
			// A contended release of another lock after it: announced, and, as
			// announcements arrive in order, the first to arrive.
			String marker = owner();
			assertThat(this.store.acquire(markerKey, marker, LONG_LEASE)).isInstanceOf(Acquired.class);
			assertThat(this.store.acquire(markerKey, owner(), LONG_LEASE)).isInstanceOf(HeldByOther.class);
			assertThat(this.store.release(markerKey, marker)).isEqualTo(Released.INSTANCE);
			assertThat(released.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(markerKey);
		}
		assertThat(this.store.withdraw(this.key, owner())).isEqualTo(NotOwned.INSTANCE);
		acquired(owner(), LONG_LEASE);
	}

	@Test
	void aHandOverThatReleasedIsAnnounced() throws Exception {
		BlockingQueue<String> released = new LinkedBlockingQueue<>();
		try (ReleaseNotifications notifications = activeSubscription(released)) {
			String holder = owner();
			acquired(holder, LONG_LEASE);
			refused(owner());
			assertThat(this.store.handOver(this.key, holder, owner(), LONG_LEASE, false)).isEqualTo(Released.INSTANCE);
			assertThat(released.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(this.key);
		}
	}

	@Test
	void aClosedSubscriptionIsInactiveAndHearsNothing() throws Exception {
		BlockingQueue<String> closedOnes = new LinkedBlockingQueue<>();
		BlockingQueue<String> openOnes = new LinkedBlockingQueue<>();
		ReleaseNotifications closed = activeSubscription(closedOnes);
		try (ReleaseNotifications open = activeSubscription(openOnes)) {
			closed.close();
			closed.close();
			assertThat(closed.ensureActive(this.key, deadline())).isFalse();
			String holder = owner();
			acquired(holder, LONG_LEASE);
			refused(owner());
			assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			assertThat(openOnes.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(this.key);
			assertThat(closedOnes).isEmpty();
		}
	}

	@Test
	void verifyChangesNothing() {
		this.store.verify();
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		acquired(owner(), LONG_LEASE);
		this.store.verify();
		refused(owner());
	}

	@Test
	void racingOwnersNeverHoldTheLockTogether() throws Exception {
		int threads = 8;
		int sectionsPerThread = 250;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicLong refusals = new AtomicLong();
		int[] sections = new int[1];
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> racers = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				racers.add(pool.submit(() -> {
					start.await();
					for (int done = 0; done < sectionsPerThread;) {
						String owner = owner();
						AcquireReply reply = this.store.acquire(this.key, owner, LONG_LEASE);
						if (!(reply instanceof Acquired)) {
							assertThat(reply).isInstanceOf(HeldByOther.class);
							refusals.incrementAndGet();
							Thread.onSpinWait();
							continue;
						}
						if (inside.incrementAndGet() != 1) {
							overlaps.incrementAndGet();
						}
						sections[0]++; // unsynchronized on purpose: only the lock
										// protects it
						inside.decrementAndGet();
						assertThat(this.store.release(this.key, owner)).isEqualTo(Released.INSTANCE);
						done++;
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> racer : racers) {
				racer.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		System.out.println(getClass().getSimpleName() + " race: " + threads + " threads x " + sectionsPerThread
				+ " critical sections, " + sections[0] + " counted, " + overlaps.get() + " overlaps, " + refusals.get()
				+ " refused acquires");
		assertThat(overlaps.get()).isZero();
		assertThat(sections[0]).isEqualTo(threads * sectionsPerThread);
	}

	protected static String owner() {
		return UUID.randomUUID().toString().replace("-", "");
	}

	protected final String key() {
		return this.key;
	}

	private long acquired(String owner, long leaseMillis) {
		return FencingTokens.read(this.store, this.key, owner, this.store.acquire(this.key, owner, leaseMillis));
	}

	private void refused(String owner) {
		assertThat(this.store.acquire(this.key, owner, LONG_LEASE)).isInstanceOf(HeldByOther.class);
	}

	private long handedOver(String owner, String newOwner) {
		HandOverReply reply = this.store.handOver(this.key, owner, newOwner, LONG_LEASE, true);
		return FencingTokens.read(this.store, this.key, newOwner, reply);
	}

	private ReleaseNotifications activeSubscription(BlockingQueue<String> released) {
		ReleaseNotifications notifications = this.store.subscribe(released::add);
		assertThat(notifications.ensureActive(this.key, deadline())).isTrue();
		return notifications;
	}

	private static long deadline() {
		return System.nanoTime() + TimeUnit.SECONDS.toNanos(NOTIFICATION_WAIT_SECONDS);
	}

}
