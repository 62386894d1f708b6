package io.github.distlock.store;

import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fair-lock part of the {@link LockStore} contract ({@link LockStore#acquireFair},
 * queues and grants), for every store that {@linkplain LockStore#supportsFairLocks()
 * supports fair locks}: a subclass creates the store and makes leases and queue entries
 * run out.
 */
public abstract class FairLockStoreContractTests {

	/** A lease and a wait no test outlives. */
	protected static final long LONG = 60_000;

	/**
	 * The short grant lease of earlier versions, 2 s: a grant now carries the lease its
	 * waiter asked for, longer than this in every test.
	 */
	protected static final long GRANT_LEASE_MILLIS = 2000;

	private static final long NOTIFICATION_WAIT_SECONDS = 10;

	protected LockStore store;

	private String key;

	/**
	 * A store for one test, with no locks held and no queues.
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
	 * Makes every entry of the fair queue of {@code key}, queued with {@code waitMillis}
	 * just before, reach the end of its wait time (and not more: leases of {@value #LONG}
	 * ms still run).
	 * @param key the lock's key
	 * @param waitMillis the wait time the entries were queued with
	 */
	protected abstract void letQueueEntriesRunOut(String key, long waitMillis);

	@BeforeEach
	void createStoreAndKey() {
		this.store = createStore();
		this.key = this.store.key("fair-contract");
		assertThat(this.store.supportsFairLocks()).isTrue();
	}

	@Test
	void aFreeLockWithNobodyQueuedIsAcquiredFairly() {
		assertThat(this.store.acquireFair(this.key, owner(), LONG, LONG)).isInstanceOfSatisfying(Acquired.class,
				(acquired) -> assertThat(acquired.fencingToken()).isPositive());
	}

	@Test
	void aLateCopyOfTheHoldersFairAcquireNeverCutsTheLeaseItExtendedTo() {
		String holder = owner();
		assertThat(this.store.acquireFair(this.key, holder, 1_000, LONG)).isInstanceOf(Acquired.class);
		assertThat(this.store.extend(this.key, holder, 10 * LONG)).isEqualTo(Extended.INSTANCE);
		assertThat(this.store.acquireFair(this.key, holder, 1_000, LONG)).isInstanceOf(Acquired.class);
		assertThat(this.store.remainingLeaseMillis(this.key)).isGreaterThan(5 * LONG);
	}

	@Test
	void releasesGrantTheLockToTheQueuedOwnersInArrivalOrderWithGreaterFencingTokens() {
		String holder = owner();
		long holderToken = acquired(holder);
		String first = owner();
		String second = owner();
		String third = owner();
		queued(first);
		queued(second);
		queued(third);
		// Asking again keeps the place.
		queued(first);

		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		// Granted to the first: held, by nobody else, with the lease it asked for.
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(GRANT_LEASE_MILLIS, LONG);
		assertThat(this.store.acquire(this.key, owner(), LONG)).isInstanceOf(HeldByOther.class);
		queued(third);
		queued(second);
		long firstToken = acquiredFairly(first);
		assertThat(firstToken).isGreaterThan(holderToken);
		// Claimed with the lease asked for.
		assertThat(this.store.remainingLeaseMillis(this.key)).isGreaterThan(GRANT_LEASE_MILLIS);

		assertThat(this.store.release(this.key, first)).isEqualTo(Released.INSTANCE);
		queued(third);
		long secondToken = acquiredFairly(second);
		assertThat(secondToken).isGreaterThan(firstToken);

		assertThat(this.store.release(this.key, second)).isEqualTo(Released.INSTANCE);
		long thirdToken = acquiredFairly(third);
		assertThat(thirdToken).isGreaterThan(secondToken);

		// Nobody queued any more: the last release frees the lock.
		assertThat(this.store.release(this.key, third)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aGrantIsAnnouncedToItsOwner() throws Exception {
		BlockingQueue<String> grants = new LinkedBlockingQueue<>();
		BlockingQueue<String> releases = new LinkedBlockingQueue<>();
		ReleaseNotifications notifications = this.store.subscribe(new ReleaseListener() {

			@Override
			public void released(String key) {
				releases.add(key);
			}

			@Override
			public void granted(String key, String owner) {
				grants.add(key + " -> " + owner);
			}

		});
		try {
			assertThat(notifications.ensureActive(this.key, deadline())).isTrue();
			String holder = owner();
			acquired(holder);
			String waiter = owner();
			queued(waiter);
			assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			assertThat(grants.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(this.key + " -> " + waiter);
			// Released and claimed with nobody queued: announced as a release.
			acquiredFairly(waiter);
			refusedUnfairly();
			assertThat(this.store.release(this.key, waiter)).isEqualTo(Released.INSTANCE);
			assertThat(releases.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(this.key);
			assertThat(grants).isEmpty();
		}
		finally {
			notifications.close();
		}
	}

	@Test
	void everyGrantCarriesAFencingTokenGreaterThanEveryEarlierOneAndTheGrantedOwnerHoldsTheLock() throws Exception {
		BlockingQueue<String> grants = new LinkedBlockingQueue<>();
		ReleaseNotifications notifications = this.store.subscribe(new ReleaseListener() {

			@Override
			public void released(String key) {
			}

			@Override
			public void granted(String key, String owner, long fencingToken) {
				grants.add(key + " -> " + owner + " " + fencingToken);
			}

		});
		try {
			assertThat(notifications.ensureActive(this.key, deadline())).isTrue();
			String earlier = owner();
			long earlierToken = acquired(earlier);
			assertThat(this.store.release(this.key, earlier)).isEqualTo(Released.INSTANCE);
			String holder = owner();
			long holderToken = acquired(holder);
			String first = owner();
			String second = owner();
			String third = owner();
			queued(first);
			queued(second);
			queued(third);

			// Granted by a release.
			assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			long firstToken = grantedToken(grants, first);
			assertThat(firstToken).isGreaterThan(holderToken).isGreaterThan(earlierToken);
			// The granted owner holds the lock without claiming it: it resets its lease
			// (as the engine confirms a grant) and hands it over.
			assertThat(this.store.extend(this.key, first, LONG)).isEqualTo(Extended.INSTANCE);
			assertThat(this.store.remainingLeaseMillis(this.key)).isGreaterThan(GRANT_LEASE_MILLIS);

			// Granted by a hand-over that releases (it may not stay local).
			assertThat(this.store.handOver(this.key, first, owner(), LONG, false)).isEqualTo(Released.INSTANCE);
			long secondToken = grantedToken(grants, second);
			assertThat(secondToken).isGreaterThan(firstToken);

			// Granted by a fair acquire finding the lock free: its holder died.
			letLeaseRunOut(this.key);
			queued(owner());
			long thirdToken = grantedToken(grants, third);
			assertThat(thirdToken).isGreaterThan(secondToken);
			// A claim of the grant gets a greater token still.
			assertThat(acquiredFairly(third)).isGreaterThan(thirdToken);
			assertThat(grants).isEmpty();
		}
		finally {
			notifications.close();
		}
	}

	@Test
	void aFairAcquireNeverPassesALiveQueueEntryAndGrantsTheFreeLockToItsHead() {
		String holder = owner();
		acquired(holder);
		String first = owner();
		queued(first);
		// The holder dies: its lease runs out, nobody releases.
		letLeaseRunOut(this.key);
		String latecomer = owner();
		queued(latecomer);
		// The latecomer's attempt granted the free lock to the head of the queue.
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(GRANT_LEASE_MILLIS, LONG);
		acquiredFairly(first);
		assertThat(this.store.release(this.key, first)).isEqualTo(Released.INSTANCE);
		acquiredFairly(latecomer);
	}

	@Test
	void aGrantNobodyClaimsEndsWithItsLeaseAndTheNextInLineGetsTheLock() {
		String holder = owner();
		acquired(holder);
		String dead = owner();
		String next = owner();
		queued(dead);
		queued(next);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		// Granted to an owner that died while queued: no longer than the lease it asked
		// for, as a holder that dies.
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(GRANT_LEASE_MILLIS, LONG);
		letLeaseRunOut(this.key);
		acquiredFairly(next);
		// Its grant is gone: the dead owner would only queue again.
		assertThat(this.store.acquireFair(this.key, dead, LONG, 0)).isInstanceOf(HeldByOther.class);
	}

	@Test
	void aQueueEntryLivesNoLongerThanItsWaitTime() {
		String holder = owner();
		acquired(holder);
		String gaveUp = owner();
		assertThat(this.store.acquireFair(this.key, gaveUp, LONG, 1000)).isInstanceOf(HeldByOther.class);
		letQueueEntriesRunOut(this.key, 1000);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		// Not granted to an entry whose wait time ended: free.
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		acquiredFairly(owner());
	}

	@Test
	void aReleaseByAQueuedOwnerWithdrawsItFromTheQueue() {
		String holder = owner();
		acquired(holder);
		String withdrawn = owner();
		String next = owner();
		queued(withdrawn);
		queued(next);
		assertThat(this.store.release(this.key, withdrawn)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		acquiredFairly(next);
		assertThat(this.store.acquireFair(this.key, withdrawn, LONG, 0)).isInstanceOf(HeldByOther.class);
	}

	@Test
	void aReleaseByAGrantedOwnerThatGaveUpPassesTheLockOn() {
		String holder = owner();
		acquired(holder);
		String gaveUp = owner();
		String next = owner();
		queued(gaveUp);
		queued(next);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		// Granted to gaveUp, which withdraws: the lock goes on to the next in line.
		assertThat(this.store.release(this.key, gaveUp)).isEqualTo(Released.INSTANCE);
		acquiredFairly(next);
	}

	@Test
	void aZeroWaitFairAcquireIsNotQueued() {
		String holder = owner();
		acquired(holder);
		String once = owner();
		assertThat(this.store.acquireFair(this.key, once, LONG, 0)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aContendedHandOverThatMayNotStayLocalGrantsTheLockToTheQueuedWaiter() {
		String holder = owner();
		acquired(holder);
		String waiter = owner();
		queued(waiter);
		assertThat(this.store.handOver(this.key, holder, owner(), LONG, false)).isEqualTo(Released.INSTANCE);
		acquiredFairly(waiter);
	}

	@Test
	void aHandOverThatMayStayLocalPassesTheQueuedWaitersOfOtherInstances() {
		String holder = owner();
		acquired(holder);
		String elsewhere = owner();
		queued(elsewhere);
		String successor = owner();
		assertThat(this.store.handOver(this.key, holder, successor, LONG, true)).isInstanceOf(Acquired.class);
		// Still queued: the successor's release grants it the lock.
		assertThat(this.store.release(this.key, successor)).isEqualTo(Released.INSTANCE);
		acquiredFairly(elsewhere);
	}

	@Test
	void aWaiterOfTheDefaultModeIsQueuedAndGrantedTheLockWithAFencingToken() throws Exception {
		BlockingQueue<String> grants = new LinkedBlockingQueue<>();
		ReleaseNotifications notifications = this.store.subscribe(new ReleaseListener() {

			@Override
			public void released(String key) {
			}

			@Override
			public void granted(String key, String owner, long fencingToken) {
				grants.add(key + " -> " + owner + " " + fencingToken);
			}

		});
		try {
			assertThat(notifications.ensureActive(this.key, deadline())).isTrue();
			String holder = owner();
			long holderToken = acquired(holder);
			String waiter = owner();
			// Refused without a wait: not queued. With one: queued.
			assertThat(this.store.acquire(this.key, waiter, LONG, 0)).isInstanceOf(HeldByOther.class);
			assertThat(this.store.acquire(this.key, waiter, LONG, LONG)).isInstanceOf(HeldByOther.class);
			assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			long grantToken = grantedToken(grants, waiter);
			assertThat(grantToken).isGreaterThan(holderToken);
			assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(GRANT_LEASE_MILLIS, LONG);
			// A claim (here without a wait, as an attempt at the deadline) resets the
			// lease to the one asked for.
			AcquireReply claim = this.store.acquire(this.key, waiter, LONG, 0);
			assertThat(FencingTokens.read(this.store, this.key, waiter, claim)).isGreaterThan(grantToken);
			assertThat(this.store.remainingLeaseMillis(this.key)).isGreaterThan(GRANT_LEASE_MILLIS);
			assertThat(this.store.release(this.key, waiter)).isEqualTo(Released.INSTANCE);
			assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		}
		finally {
			notifications.close();
		}
	}

	@Test
	void aFreeLockIsTakenAtOnceByAQueuedWaiterOfTheDefaultModeAndItsReleaseGrantsItOn() {
		String holder = owner();
		acquired(holder);
		String first = owner();
		String second = owner();
		assertThat(this.store.acquire(this.key, first, LONG, 10 * LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquire(this.key, second, LONG, 10 * LONG)).isInstanceOf(HeldByOther.class);
		// The holder died: the free lock goes to whoever asks first, here the second.
		letLeaseRunOut(this.key);
		assertThat(this.store.acquire(this.key, second, LONG, 10 * LONG)).isInstanceOf(Acquired.class);
		// Flagged while the first is queued: the release grants it the lock.
		assertThat(this.store.release(this.key, second)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(GRANT_LEASE_MILLIS, LONG);
		assertThat(this.store.acquire(this.key, first, LONG, 10 * LONG)).isInstanceOf(Acquired.class);
		// The second's entry went with its acquisition: nobody is granted the lock.
		assertThat(this.store.release(this.key, first)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	/**
	 * Found by the simulation (seed 21878): a waiter's last attempt, made with no wait
	 * left, took the free lock; its entry of the earlier attempts stayed in the in-memory
	 * queue (Redis withdrew it), and its own release granted the lock back to it.
	 */
	@Test
	void aFreeLockTakenWithoutWaitingWithdrawsTheOwnersQueueEntryOfEarlierAttempts() {
		String holder = owner();
		acquired(holder);
		String waiter = owner();
		assertThat(this.store.acquire(this.key, waiter, LONG, 10 * LONG)).isInstanceOf(HeldByOther.class);
		letLeaseRunOut(this.key);
		// Its last attempt: no wait left.
		assertThat(this.store.acquire(this.key, waiter, LONG, 0)).isInstanceOf(Acquired.class);
		String next = owner();
		assertThat(this.store.acquire(this.key, next, LONG, 10 * LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, waiter)).isEqualTo(Released.INSTANCE);
		// Granted to the next in line, not back to the owner that just released it.
		assertThat(this.store.acquire(this.key, waiter, LONG, 0)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquire(this.key, next, LONG, 10 * LONG)).isInstanceOf(Acquired.class);
	}

	@Test
	void aHandOverToAQueuedWaiterWithdrawsItsQueueEntry() {
		String holder = owner();
		acquired(holder);
		String queuedAs = owner();
		assertThat(this.store.acquire(this.key, queuedAs, LONG, LONG)).isInstanceOf(HeldByOther.class);
		String successor = owner();
		assertThat(this.store.handOver(this.key, holder, successor, LONG, true, queuedAs)).isInstanceOf(Acquired.class);
		// Not granted to the withdrawn entry: free.
		assertThat(this.store.release(this.key, successor)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aDefaultModeWaiterThatGivesUpWithdrawsAndHandsOnAGrant() {
		String holder = owner();
		acquired(holder);
		String gaveUp = owner();
		String next = owner();
		assertThat(this.store.acquire(this.key, gaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquire(this.key, next, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		// Granted to gaveUp, which withdraws: the lock goes on to the next in line.
		assertThat(this.store.release(this.key, gaveUp)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.acquire(this.key, next, LONG, LONG)).isInstanceOf(Acquired.class);
	}

	@Test
	void aGrantCarriesTheLeaseItsWaiterAskedFor() {
		String holder = owner();
		acquired(holder);
		String fair = owner();
		String unfair = owner();
		assertThat(this.store.acquireFair(this.key, fair, 45_000, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquire(this.key, unfair, 25_000, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(40_000L, 45_000L);
		assertThat(this.store.release(this.key, fair)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isBetween(20_000L, 25_000L);
	}

	@Test
	void aLateCopyOfAQueuedAttemptAppliedAfterItsWithdrawalQueuesNothing() {
		String holder = owner();
		acquired(holder);
		String gaveUp = owner();
		String fairGaveUp = owner();
		assertThat(this.store.acquire(this.key, gaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquireFair(this.key, fairGaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, gaveUp)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, fairGaveUp)).isEqualTo(NotOwned.INSTANCE);
		// Copies of their attempts, applied late: refused, nothing queued.
		assertThat(this.store.acquire(this.key, gaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquireFair(this.key, fairGaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aLateCopyOfAQueuedAttemptTakesNoFreeLock() {
		String holder = owner();
		acquired(holder);
		String gaveUp = owner();
		String fairGaveUp = owner();
		assertThat(this.store.acquire(this.key, gaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquireFair(this.key, fairGaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, gaveUp)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, fairGaveUp)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.acquire(this.key, gaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquireFair(this.key, fairGaveUp, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		acquiredFairly(owner());
	}

	@Test
	void aLateCopyOfAnAttemptOfAnOwnerThatHandedTheLockOverQueuesNothing() {
		String holder = owner();
		acquired(holder);
		String successor = owner();
		assertThat(this.store.handOver(this.key, holder, successor, LONG, true)).isInstanceOf(Acquired.class);
		// A copy of the holder's own queued attempt, applied after it handed the lock
		// over.
		assertThat(this.store.acquire(this.key, holder, LONG, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, successor)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aReplayedFairAcquireIsAcquiredWithAGreaterToken() {
		String owner = owner();
		long first = acquiredFairly(owner);
		assertThat(acquiredFairly(owner)).isGreaterThan(first);
	}

	@Test
	void anUncontendedReleaseAfterAFairAcquireFreesTheLock() {
		String owner = owner();
		acquiredFairly(owner);
		assertThat(this.store.release(this.key, owner)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	protected static String owner() {
		return UUID.randomUUID().toString().replace("-", "");
	}

	private long acquired(String owner) {
		return FencingTokens.read(this.store, this.key, owner, this.store.acquire(this.key, owner, LONG));
	}

	private long acquiredFairly(String owner) {
		AcquireReply reply = this.store.acquireFair(this.key, owner, LONG, LONG);
		assertThat(reply).isInstanceOf(Acquired.class);
		return ((Acquired) reply).fencingToken();
	}

	/** Queued for longer than any lease of a test, which may run out before. */
	private void queued(String owner) {
		assertThat(this.store.acquireFair(this.key, owner, LONG, 10 * LONG)).isInstanceOf(HeldByOther.class);
	}

	private long grantedToken(BlockingQueue<String> grants, String owner) throws InterruptedException {
		String grant = grants.poll(NOTIFICATION_WAIT_SECONDS, TimeUnit.SECONDS);
		String prefix = this.key + " -> " + owner + " ";
		assertThat(grant).startsWith(prefix);
		return Long.parseLong(grant.substring(prefix.length()));
	}

	private void refusedUnfairly() {
		assertThat(this.store.acquire(this.key, owner(), LONG)).isInstanceOf(HeldByOther.class);
	}

	private static long deadline() {
		return System.nanoTime() + TimeUnit.SECONDS.toNanos(NOTIFICATION_WAIT_SECONDS);
	}

}
