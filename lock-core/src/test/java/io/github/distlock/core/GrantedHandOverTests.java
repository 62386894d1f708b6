package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
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
 * In the default mode, on a store that grants, the waiter of this instance is queued in
 * the store, and the release by another instance grants it the lock: it holds at once,
 * with the grant's token and the lease it asked for, and no acquire round trip; a waiter
 * that gives up withdraws (handing on a grant it got meanwhile). One engine on an
 * in-memory store shared with a holder of "another instance" that acquires and releases
 * directly; the engine's store calls are counted.
 */
class GrantedHandOverTests {

	private static final String LOCK_ID = "handed-over";

	private static final Duration BOUND = Duration.ofSeconds(20);

	private static final long LONG = 60_000;

	private final InMemoryLockStore shared = new InMemoryLockStore();

	private final GrantCountingStore counted = new GrantCountingStore(this.shared);

	private final LockEngine engine = new LockEngine(this.counted, Duration.ofSeconds(30));

	private final String key = this.shared.key(LOCK_ID);

	private final BlockingQueue<Long> grantTokens = new LinkedBlockingQueue<>();

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final ReleaseNotifications grants = this.shared.subscribe(new ReleaseListener() {

		@Override
		public void released(String key) {
		}

		@Override
		public void granted(String key, String owner, long fencingToken) {
			GrantedHandOverTests.this.grantTokens.add(fencingToken);
		}

	});

	@AfterEach
	void shutDown() throws InterruptedException {
		this.executor.shutdownNow();
		assertThat(this.executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		this.engine.destroy();
		this.grants.close();
	}

	@Test
	void aReleaseByAnotherInstanceGrantsTheLockToTheWaiterWhichHoldsItWithoutAnAcquire() throws Exception {
		int rounds = 10;
		long acquiresAfterRelease = 0;
		long resetsAfterGrants = 0;
		for (int round = 0; round < rounds; round++) {
			boolean fixed = round % 2 == 1;
			String holder = "holder" + round;
			long holderToken = acquired(holder);
			Waiting waiting = waitFor(BOUND, fixed ? Duration.ofSeconds(40) : null);
			await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
			long resetsBefore = this.counted.leasesReset();
			long acquiresBefore = this.counted.acquires();
			assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
			LockHandle handle = waiting.handle();
			acquiresAfterRelease += this.counted.acquires() - acquiresBefore;
			assertThat(handle.fencingToken()).isEqualTo(announcedGrantToken()).isGreaterThan(holderToken);
			// Granted with the lease asked for: nothing to confirm.
			assertThat(this.shared.remainingLeaseMillis(this.key)).isBetween(fixed ? 35_000L : 25_000L,
					fixed ? 40_000L : 30_000L);
			assertThat(handle.isHeld()).isTrue();
			handle.close();
			resetsAfterGrants += this.counted.leasesReset() - resetsBefore;
			// Nobody else queued: freed.
			assertThat(this.shared.remainingLeaseMillis(this.key)).isEqualTo(-1);
		}
		System.out.printf(
				"[granted-hand-over] %d hand-overs from another instance (auto-renewed and fixed leases):"
						+ " %d grants announced, acquires after the release %d, claims after the announcement %d, lease"
						+ " resets %d%n",
				rounds, this.counted.grantsAnnounced(), acquiresAfterRelease, this.counted.claimsAfterGrant(),
				resetsAfterGrants);
		assertThat(this.counted.grantsAnnounced()).isEqualTo(rounds);
		assertThat(this.counted.claimsAfterGrant()).isZero();
		assertThat(resetsAfterGrants).isZero();
	}

	@Test
	void theWaitersBehindTheGrantedOneGetTheLockByLocalHandOver() throws Exception {
		String holder = "holder";
		acquired(holder);
		int waiters = 4;
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		BlockingQueue<Long> tokens = new LinkedBlockingQueue<>();
		CompletableFuture<?>[] done = new CompletableFuture<?>[waiters];
		for (int i = 0; i < waiters; i++) {
			done[i] = CompletableFuture.runAsync(() -> {
				try (LockHandle handle = this.engine.tryLock(LOCK_ID, BOUND, null).orElseThrow()) {
					if (holders.incrementAndGet() > 1) {
						overlaps.incrementAndGet();
					}
					tokens.add(handle.fencingToken());
					holders.decrementAndGet();
				}
			}, this.executor);
		}
		await().atMost(BOUND).until(() -> this.counted.acquires() >= 2);
		assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		CompletableFuture.allOf(done).get(BOUND.toSeconds(), TimeUnit.SECONDS);
		assertThat(overlaps).hasValue(0);
		assertThat(tokens).hasSize(waiters).doesNotHaveDuplicates();
		assertThat(this.shared.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aWaiterThatGivesUpWhileQueuedWithdrawsAndTheLockIsFreeAtTheRelease() throws Exception {
		String holder = "holder";
		acquired(holder);
		Waiting waiting = waitFor(BOUND, null);
		await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
		AtomicInteger withdrawals = new AtomicInteger();
		this.counted.beforeRelease = (owner) -> withdrawals.incrementAndGet();
		waiting.thread().interrupt();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(waiting::handle)
			.havingCause()
			.isInstanceOf(LockNotAcquiredException.class);
		await().atMost(BOUND).until(() -> withdrawals.get() == 1);
		assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		// Not granted to the gone waiter: free at once.
		assertThat(this.shared.remainingLeaseMillis(this.key)).isEqualTo(-1);
	}

	@Test
	void aGrantToAWaiterThatJustGaveUpIsHandedOnByItsWithdrawal() throws Exception {
		String holder = "holder";
		String next = "next";
		acquired(holder);
		Waiting waiting = waitFor(BOUND, null);
		await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
		assertThat(this.shared.acquire(this.key, next, LONG, LONG)).isInstanceOf(HeldByOther.class);
		// The holder releases just before the withdrawal of the interrupted waiter.
		this.counted.beforeRelease = (owner) -> assertThat(this.shared.release(this.key, holder))
			.isEqualTo(Released.INSTANCE);
		waiting.thread().interrupt();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(waiting::handle)
			.havingCause()
			.isInstanceOf(LockNotAcquiredException.class);
		await().atMost(BOUND).until(() -> this.shared.acquire(this.key, next, LONG, LONG) instanceof Acquired);
		assertThat(this.counted.grantsAnnounced()).isEqualTo(2);
	}

	@Test
	void aLostGrantAnnouncementIsClaimedByTheReCheck() throws Exception {
		this.counted.dropGrantAnnouncements = true;
		String holder = "holder";
		long holderToken = acquired(holder);
		Waiting waiting = waitFor(BOUND, null);
		await().atMost(BOUND).until(() -> EngineProbe.isQueuedWaiter(waiting.thread()));
		long acquiresBefore = this.counted.acquires();
		assertThat(this.shared.release(this.key, holder)).isEqualTo(Released.INSTANCE);
		LockHandle handle = waiting.handle();
		long grantToken = announcedGrantToken();
		assertThat(this.counted.acquires()).isGreaterThan(acquiresBefore);
		assertThat(handle.fencingToken()).isGreaterThan(grantToken).isGreaterThan(holderToken);
		assertThat(this.shared.remainingLeaseMillis(this.key)).isGreaterThan(InMemoryLockStore.GRANT_LEASE.toMillis());
		handle.close();
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
				result.complete(this.engine.tryLock(LOCK_ID, waitTime, leaseTime));
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		}, "waiter");
		thread.start();
		return new Waiting(thread, result);
	}

	private record Waiting(Thread thread, CompletableFuture<Optional<LockHandle>> result) {

		LockHandle handle() throws Exception {
			return this.result.get(BOUND.toSeconds(), TimeUnit.SECONDS).orElseThrow();
		}

	}

}
