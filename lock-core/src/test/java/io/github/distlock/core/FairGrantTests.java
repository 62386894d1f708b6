package io.github.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.Released;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A fair waiter whose grant is announced holds the lock at once, with the grant's fencing
 * token and the lease it asked for, with no claim round trip and no lease reset; the
 * races around a grant (the waiter's own attempt in flight, a waiter giving up or
 * interrupted, a lost announcement, a grant taken away) each end with one holder at most
 * and nothing stuck. One engine (this instance) on an in-memory store shared with a
 * holder of "another instance" that acquires and releases directly; the engine's store
 * calls are counted.
 */
class FairGrantTests {

	private static final String LOCK_ID = "granted";

	private static final Duration BOUND = Duration.ofSeconds(20);

	private static final long LONG = 60_000;

	private final InMemoryLockStore shared = new InMemoryLockStore();

	private final GrantCountingStore counted = new GrantCountingStore(this.shared);

	private final LockEngine engine = new LockEngine(this.counted, Duration.ofSeconds(30));

	private final String key = this.shared.key(LOCK_ID);

	private final BlockingQueue<Long> grantTokens = new LinkedBlockingQueue<>();

	private final ReleaseNotifications grants = this.shared.subscribe(new ReleaseListener() {

		@Override
		public void released(String key) {
		}

		@Override
		public void granted(String key, String owner, long fencingToken) {
			FairGrantTests.this.grantTokens.add(fencingToken);
		}

	});

	@AfterEach
	void shutDown() {
		this.engine.destroy();
		this.grants.close();
	}

	@Test
	void aGrantedWaiterHoldsAtOnceWithTheGrantsTokenAndTheLeaseItAskedFor() throws Exception {
		int rounds = 10;
		long acquiresAfterRelease = 0;
		long resetsAfterGrants = 0;
		for (int round = 0; round < rounds; round++) {
			// Auto-renewed and fixed leases alternately.
			boolean fixed = round % 2 == 1;
			String holder = "holder" + round;
			long holderToken = acquired(holder);
			Waiting waiting = waitFor(BOUND, fixed ? Duration.ofSeconds(40) : null);
			await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
			long resetsBefore = this.counted.leasesReset();
			long acquiresBefore = this.counted.fairAcquires();
			assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			LockHandle handle = waiting.handle();
			acquiresAfterRelease += this.counted.fairAcquires() - acquiresBefore;
			assertThat(handle.fencingToken()).isEqualTo(announcedGrantToken()).isGreaterThan(holderToken);
			// Granted with the lease asked for (30 s auto-renewed, 40 s fixed): nothing
			// to confirm.
			assertThat(this.shared.remainingLeaseMillis(this.key)).isBetween(fixed ? 35_000L : 25_000L,
					fixed ? 40_000L : 30_000L);
			assertThat(handle.isHeld()).isTrue();
			handle.close();
			resetsAfterGrants += this.counted.leasesReset() - resetsBefore;
			assertThat(this.shared.remainingLeaseMillis(this.key)).isEqualTo(-1);
		}
		System.out.printf(
				"[fair-grant] %d grants (auto-renewed and fixed leases): %d announced, fair acquires"
						+ " after the release %d, claims after the announcement %d, lease resets %d%n",
				rounds, this.counted.grantsAnnounced(), acquiresAfterRelease, this.counted.claimsAfterGrant(),
				resetsAfterGrants);
		assertThat(this.counted.grantsAnnounced()).isEqualTo(rounds);
		assertThat(this.counted.claimsAfterGrant()).isZero();
		assertThat(resetsAfterGrants).isZero();
	}

	@Test
	void aGrantMadeBeforeTheWaitersAttemptWasAppliedIsClaimedByThatAttemptWhoseReplyWins() throws Exception {
		String holder = "holder";
		acquired(holder);
		// The first attempt queues; the second, sent at once after subscribing, finds
		// the grant.
		this.counted.beforeFairAcquire = (call) -> {
			if (call == 2) {
				assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			}
		};
		LockHandle handle = waitFor(BOUND, null).handle();
		long grantToken = announcedGrantToken();
		System.out.printf(
				"[fair-grant] grant announced during the attempt that claims it: grant token %d, hold's"
						+ " token %d (the claim's %d)%n",
				grantToken, handle.fencingToken(), this.counted.lastAcquiredToken());
		assertThat(handle.fencingToken()).isEqualTo(this.counted.lastAcquiredToken()).isGreaterThan(grantToken);
		assertThat(this.counted.fairAcquires()).isEqualTo(2);
		handle.close();
		assertThat(this.shared.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aGrantMadeAfterTheWaitersAttemptWasRefusedIsHeldWhenThatAttemptReturns() throws Exception {
		String holder = "holder";
		acquired(holder);
		this.counted.afterFairAcquire = (call) -> {
			if (call == 2) {
				assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			}
		};
		LockHandle handle = waitFor(BOUND, null).handle();
		assertThat(handle.fencingToken()).isEqualTo(announcedGrantToken());
		assertThat(this.counted.fairAcquires()).isEqualTo(2);
		assertThat(this.counted.claimsAfterGrant()).isZero();
		handle.close();
		assertThat(this.shared.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aGrantToAWaiterThatJustGaveUpIsPassedOnByItsWithdrawal() throws Exception {
		String holder = "holder";
		String next = "next";
		acquired(holder);
		// Queued behind the waiter.
		this.counted.afterFairAcquire = (call) -> {
			if (call == 1) {
				assertThat(this.shared.acquireFair(this.key, next, LONG, LONG)).isInstanceOf(HeldByOther.class);
			}
		};
		Waiting waiting = waitFor(BOUND, null);
		await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
		// The waiter gives up (interrupted), and the holder releases just before its
		// withdrawal arrives: granted to the waiter, then handed on by the withdrawal.
		this.counted.beforeRelease = (owner) -> assertThat(this.shared.release(this.key, holder))
			.isEqualTo(Released.INSTANCE);
		waiting.thread().interrupt();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(waiting::handle)
			.havingCause()
			.isInstanceOf(LockNotAcquiredException.class);
		// Not stuck with the gone waiter for the grant lease: granted on to the next in
		// line, which claims it.
		await().atMost(BOUND).until(() -> this.shared.acquireFair(this.key, next, LONG, LONG) instanceof Acquired);
		assertThat(this.counted.grantsAnnounced()).isEqualTo(2);
	}

	@Test
	void aWaiterInterruptedWhenGrantedHandsTheGrantOn() throws Exception {
		String holder = "holder";
		acquired(holder);
		Waiting waiting = waitFor(BOUND, null);
		await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
		this.counted.beforeGrantAnnounced = (owner) -> waiting.thread().interrupt();
		assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(waiting::handle)
			.havingCause()
			.isInstanceOf(LockNotAcquiredException.class)
			.havingCause()
			.isInstanceOf(InterruptedException.class);
		await().atMost(BOUND).until(() -> this.shared.remainingLeaseMillis(this.key) == -1);
	}

	@Test
	void aLostGrantAnnouncementIsClaimedByTheFallbackReCheck() throws Exception {
		this.counted.dropGrantAnnouncements = true;
		String holder = "holder";
		long holderToken = acquired(holder);
		Waiting waiting = waitFor(BOUND, null);
		await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
		long acquiresBefore = this.counted.fairAcquires();
		assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		LockHandle handle = waiting.handle();
		long grantToken = announcedGrantToken();
		assertThat(this.counted.fairAcquires()).isGreaterThan(acquiresBefore);
		assertThat(handle.fencingToken()).isEqualTo(this.counted.lastAcquiredToken())
			.isGreaterThan(grantToken)
			.isGreaterThan(holderToken);
		handle.close();
	}

	@Test
	void aGrantTakenAwayIsALostLockAtTheNextRenewal() throws Exception {
		List<Object> events = new CopyOnWriteArrayList<>();
		this.engine.setLockLostListener(events::add);
		String holder = "holder";
		acquired(holder);
		Waiting waiting = waitFor(BOUND, null);
		await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
		assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		LockHandle handle = waiting.handle();
		// As if the lease ran out and the lock went elsewhere: the renewal finds the
		// lock owned by another owner.
		this.counted.beforeExtend = (owner) -> {
			this.shared.release(this.key, owner);
			assertThat(this.shared.acquire(this.key, "other", LONG)).isInstanceOf(Acquired.class);
		};
		this.engine.renewNow();
		await().atMost(BOUND).until(() -> !handle.isHeld() && !events.isEmpty());
		assertThat(events).singleElement().isInstanceOf(LostLock.class);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
		// The other owner's lock is untouched.
		assertThat(this.shared.release(this.key, "other")).isEqualTo(Released.INSTANCE);
	}

	private long acquired(String owner) {
		AcquireReply reply = this.shared.acquire(this.key, owner, LONG);
		assertThat(reply).isInstanceOf(Acquired.class);
		return ((Acquired) reply).fencingToken();
	}

	private long announcedGrantToken() throws InterruptedException {
		Long token = this.grantTokens.poll(BOUND.toSeconds(), TimeUnit.SECONDS);
		assertThat(token).as("grant announced").isNotNull();
		return token;
	}

	private Waiting waitFor(Duration waitTime, @Nullable Duration leaseTime) {
		CompletableFuture<Optional<LockHandle>> result = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				result.complete(this.engine.fair().tryLock(LOCK_ID, waitTime, leaseTime));
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		}, "fair-waiter");
		thread.start();
		return new Waiting(thread, result);
	}

	private record Waiting(Thread thread, CompletableFuture<Optional<LockHandle>> result) {

		LockHandle handle() throws Exception {
			return this.result.get(BOUND.toSeconds(), TimeUnit.SECONDS).orElseThrow();
		}

	}

}
