package io.github.distlock.store;

import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The shared-hold part of the {@link LockStore} contract ({@link LockStore#acquireShared}
 * and the release and extension of shared holds), for every store that
 * {@linkplain LockStore#supportsSharedLocks() supports them}: a subclass creates the
 * store and lets time pass.
 */
public abstract class SharedLockStoreContractTests {

	/** A lease no test outlives. */
	protected static final long LONG = 60_000;

	/** A lease a test lets run out. */
	protected static final long SHORT = 300;

	private static final int READ = 0;

	protected LockStore store;

	private String key;

	/**
	 * A store for one test, with no locks held.
	 * @return the store
	 */
	protected abstract LockStore createStore();

	/**
	 * Lets {@code millis} pass on the store's clock (or more: leases of {@value #LONG} ms
	 * still run).
	 * @param millis how long
	 */
	protected abstract void letTimePass(long millis);

	@BeforeEach
	void createStoreAndKey() {
		this.store = createStore();
		this.key = this.store.key("shared-contract:" + UUID.randomUUID());
		assertThat(this.store.supportsSharedLocks()).isTrue();
	}

	@Test
	void readHoldsShareTheKeyAndExcludeTheLock() {
		long first = acquired(owner(), READ, LONG);
		String second = owner();
		assertThat(acquired(second, READ, LONG)).isGreaterThan(first);
		String writer = owner();
		assertThat(this.store.acquire(this.key, writer, LONG)).isInstanceOfSatisfying(HeldByOther.class,
				(refused) -> assertThat(refused.remainingLeaseMillis()).isPositive());
		assertThat(this.store.remainingLeaseMillis(this.key)).isPositive();
		assertThat(this.store.release(this.key, second)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.acquire(this.key, owner(), LONG)).isInstanceOf(HeldByOther.class);
	}

	@Test
	void theLastReleaseFreesTheKeyForTheLockWithAGreaterToken() {
		String reader = owner();
		long token = acquired(reader, READ, LONG);
		assertThat(this.store.release(this.key, reader)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		String writer = owner();
		assertThat(FencingTokens.read(this.store, this.key, writer, this.store.acquire(this.key, writer, LONG)))
			.isGreaterThan(token);
	}

	@Test
	void permitsAreCountedAndComeFree() {
		String first = owner();
		acquired(first, 2, LONG);
		acquired(owner(), 2, LONG);
		String third = owner();
		assertThat(this.store.acquireShared(this.key, third, 2, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, first)).isEqualTo(Released.INSTANCE);
		acquired(third, 2, LONG);
	}

	@Test
	void aReplayIsAcquiredAgainWithAGreaterTokenAndCountsOnce() {
		String holder = owner();
		long token = acquired(holder, 2, LONG);
		assertThat(acquired(holder, 2, LONG)).isGreaterThan(token);
		acquired(owner(), 2, LONG);
		assertThat(this.store.acquireShared(this.key, owner(), 2, LONG)).isInstanceOf(HeldByOther.class);
	}

	@Test
	void aReplayedReleaseIsReleasedAndALateAcquireChangesNothing() {
		String holder = owner();
		acquired(holder, READ, LONG);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.acquireShared(this.key, holder, READ, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
		assertThat(this.store.acquire(this.key, owner(), LONG)).isInstanceOf(Acquired.class);
	}

	@Test
	void aHoldWhoseLeaseRanOutNoLongerCountsAndIsNotOwned() {
		String expiring = owner();
		acquired(expiring, 2, SHORT);
		acquired(owner(), 2, LONG);
		letTimePass(SHORT);
		acquired(owner(), 2, LONG);
		assertThat(this.store.extend(this.key, expiring, LONG)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.release(this.key, expiring)).isEqualTo(NotOwned.INSTANCE);
	}

	@Test
	void extendResetsTheLeaseOfItsOwnHoldOnly() {
		String extended = owner();
		acquired(extended, READ, SHORT);
		String other = owner();
		acquired(other, READ, SHORT);
		assertThat(this.store.extend(this.key, extended, LONG)).isEqualTo(Extended.INSTANCE);
		letTimePass(SHORT);
		assertThat(this.store.extend(this.key, other, LONG)).isEqualTo(NotOwned.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isGreaterThan(SHORT);
		assertThat(this.store.release(this.key, extended)).isEqualTo(Released.INSTANCE);
		assertThat(this.store.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aQueuedWriterGoesBeforeNewSharedHoldsAndIsGrantedTheKey() {
		String reader = owner();
		acquired(reader, READ, LONG);
		String writer = owner();
		assertThat(this.store.acquire(this.key, writer, LONG, LONG)).isInstanceOf(HeldByOther.class);
		String late = owner();
		assertThat(this.store.acquireShared(this.key, late, READ, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.release(this.key, reader)).isEqualTo(Released.INSTANCE);
		// Granted to the writer: it claims the key, the late reader still waits.
		assertThat(this.store.acquireShared(this.key, owner(), READ, LONG)).isInstanceOf(HeldByOther.class);
		assertThat(this.store.acquire(this.key, writer, LONG, LONG)).isInstanceOf(Acquired.class);
		assertThat(this.store.release(this.key, writer)).isEqualTo(Released.INSTANCE);
		acquired(owner(), READ, LONG);
	}

	@Test
	void anotherNumberOfPermitsIsRefusedAsAConflictChangingNothing() {
		String holder = owner();
		acquired(holder, 3, LONG);
		assertThatExceptionOfType(SharedLockConflictException.class)
			.isThrownBy(() -> this.store.acquireShared(this.key, owner(), 2, LONG))
			.satisfies((conflict) -> {
				assertThat(conflict.getHeldPermits()).isEqualTo(3);
				assertThat(conflict.getAskedPermits()).isEqualTo(2);
			});
		assertThatExceptionOfType(SharedLockConflictException.class)
			.isThrownBy(() -> this.store.acquireShared(this.key, owner(), READ, LONG))
			.withMessageContaining("a semaphore of 3 permits")
			.withMessageContaining("READ locks");
		assertThat(this.store.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		acquired(owner(), READ, LONG);
	}

	@Test
	void theLastReleaseOfAKeyAWriterWasRefusedIsAnnounced() throws Exception {
		BlockingQueue<String> releases = new LinkedBlockingQueue<>();
		ReleaseNotifications notifications = this.store.subscribe(new ReleaseListener() {

			@Override
			public void released(String key) {
				releases.add(key);
			}

		});
		try {
			assertThat(notifications.ensureActive(this.key, System.nanoTime() + TimeUnit.SECONDS.toNanos(10))).isTrue();
			String first = owner();
			String second = owner();
			acquired(first, READ, LONG);
			acquired(second, READ, LONG);
			assertThat(this.store.acquire(this.key, owner(), LONG)).isInstanceOf(HeldByOther.class);
			assertThat(this.store.release(this.key, first)).isEqualTo(Released.INSTANCE);
			assertThat(this.store.release(this.key, second)).isEqualTo(Released.INSTANCE);
			assertThat(releases.poll(10, TimeUnit.SECONDS)).isEqualTo(this.key);
		}
		finally {
			notifications.close();
		}
	}

	private long acquired(String owner, int permits, long leaseMillis) {
		AcquireReply reply = this.store.acquireShared(this.key, owner, permits, leaseMillis);
		assertThat(reply).isInstanceOf(Acquired.class);
		return ((Acquired) reply).fencingToken();
	}

	private static String owner() {
		return UUID.randomUUID().toString().replace("-", "");
	}

}
