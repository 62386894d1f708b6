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
import io.github.distlock.LockLostEvent;
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
 * token and no claim round trip, and has its lease confirmed off its path (a hold
 * released before that is due needs no confirmation); the races around a grant (the
 * waiter's own attempt in flight, a waiter giving up or interrupted, a lost announcement,
 * a grant taken away before its confirmation) each end with one holder at most and
 * nothing stuck. One engine (this instance) on an in-memory store shared with a holder of
 * "another instance" that acquires and releases directly; the engine's store calls are
 * counted.
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
	void aGrantedWaiterHoldsAtOnceWithTheGrantsTokenAndItsLeaseIsConfirmed() throws Exception {
		int rounds = 10;
		long acquiresAfterRelease = 0;
		for (int round = 0; round < rounds; round++) {
			// Auto-renewed and fixed leases alternately.
			boolean fixed = round % 2 == 1;
			String holder = "holder" + round;
			long holderToken = acquired(holder);
			Waiting waiting = waitFor(BOUND, fixed ? Duration.ofSeconds(30) : null);
			await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
			long resetsBefore = this.counted.leasesReset();
			long acquiresBefore = this.counted.fairAcquires();
			assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			LockHandle handle = waiting.handle();
			acquiresAfterRelease += this.counted.fairAcquires() - acquiresBefore;
			assertThat(handle.fencingToken()).isEqualTo(announcedGrantToken()).isGreaterThan(holderToken);
			await().atMost(BOUND).until(() -> this.counted.leasesReset() > resetsBefore);
			assertThat(this.shared.remainingLeaseMillis(this.key))
				.isGreaterThan(InMemoryLockStore.GRANT_LEASE.toMillis());
			assertThat(handle.isHeld()).isTrue();
			handle.close();
			assertThat(this.shared.remainingLeaseMillis(this.key)).isEqualTo(-1);
		}
		System.out.printf(
				"[fair-grant] %d grants (auto-renewed and fixed leases): %d announced, fair acquires"
						+ " after the release %d, claims after the announcement %d, leases confirmed %d%n",
				rounds, this.counted.grantsAnnounced(), acquiresAfterRelease, this.counted.claimsAfterGrant(),
				this.counted.leasesReset());
		assertThat(this.counted.grantsAnnounced()).isEqualTo(rounds);
		assertThat(this.counted.claimsAfterGrant()).isZero();
	}

	@Test
	void aHoldByAGrantReleasedBeforeItsConfirmationIsDueSendsNoLeaseReset() throws Exception {
		// The confirmation is due once a third of the grant's rest has passed, and a
		// waiter holds by a grant only with at least a quarter of the grant lease left.
		long dueAfterNanos = InMemoryLockStore.GRANT_LEASE.toNanos() / 4 / 3;
		int rounds = 10;
		int releasedBeforeDue = 0;
		long resetsOfThoseRounds = 0;
		for (int round = 0; round < rounds; round++) {
			boolean fixed = round % 2 == 1;
			String holder = "holder" + round;
			acquired(holder);
			CompletableFuture<Long> heldFor = new CompletableFuture<>();
			Thread waiter = new Thread(() -> {
				try {
					LockHandle handle = this.engine.fair()
						.tryLock(LOCK_ID, BOUND, fixed ? Duration.ofSeconds(30) : null)
						.orElseThrow();
					long heldAt = System.nanoTime();
					handle.close();
					heldFor.complete(System.nanoTime() - heldAt);
				}
				catch (Throwable ex) {
					heldFor.completeExceptionally(ex);
				}
			}, "fair-waiter");
			waiter.start();
			await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiter));
			long resetsBefore = this.counted.leasesReset();
			assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			long held = heldFor.get(BOUND.toSeconds(), TimeUnit.SECONDS);
			assertThat(announcedGrantToken()).isPositive();
			assertThat(this.shared.remainingLeaseMillis(this.key)).isEqualTo(-1);
			await().atMost(BOUND).until(() -> this.engine.pendingRenewalTasks() == 0);
			if (held < dueAfterNanos) {
				releasedBeforeDue++;
				resetsOfThoseRounds += this.counted.leasesReset() - resetsBefore;
			}
		}
		System.out.printf(
				"[fair-grant] %d holds by a grant (auto-renewed and fixed leases), %d released before"
						+ " their confirmation was due: lease resets sent for those %d%n",
				rounds, releasedBeforeDue, resetsOfThoseRounds);
		assertThat(releasedBeforeDue).as("holds released within %d ms", dueAfterNanos / 1_000_000).isPositive();
		assertThat(resetsOfThoseRounds).isZero();
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
	void aGrantTakenAwayBeforeItsLeaseIsConfirmedIsALostLock() throws Exception {
		List<Object> events = new CopyOnWriteArrayList<>();
		this.engine.setApplicationEventPublisher(events::add);
		String holder = "holder";
		acquired(holder);
		Waiting waiting = waitFor(BOUND, null);
		await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
		// As if the grant lease ran out and the lock went elsewhere: the confirmation
		// finds the lock owned by another owner.
		this.counted.beforeExtend = (owner) -> {
			this.shared.release(this.key, owner);
			assertThat(this.shared.acquire(this.key, "other", LONG)).isInstanceOf(Acquired.class);
		};
		assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		LockHandle handle = waiting.handle();
		await().atMost(BOUND).until(() -> !handle.isHeld() && !events.isEmpty());
		assertThat(events).singleElement().isInstanceOf(LockLostEvent.class);
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
