package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.LockHandle;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.ForwardingReleaseListener;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.ReleaseListener;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A grant announced to an owner token that the acquisition has since spent is not taken
 * (issue 39, 4: the check in {@code QueuedGrants.heldByGrant}). The order the simulation
 * never reached in 6,000 seeds, built here step by step: a waiter queued in the store;
 * the holder releases and the store grants the lock to the waiter's token, but the
 * grant's announcement is held back; the waiter's next attempt claims the grant and is
 * answered only after its lease ran out, so the engine undoes it (the token is spent);
 * and only then the announcement arrives. Taking it would make the waiter believe it
 * holds a lock the store has already released: another instance could take it at the same
 * time.
 */
class LateGrantToSpentTokenTests {

	private static final Duration LEASE = Duration.ofMillis(300);

	private final InMemoryLockStore shared = new InMemoryLockStore();

	private final LateGrantStore store = new LateGrantStore(this.shared);

	private final LockEngine waiterInstance = new LockEngine(this.store, LEASE);

	private final LockEngine otherInstance = new LockEngine(this.shared, Duration.ofSeconds(30));

	@AfterEach
	void shutDown() {
		this.waiterInstance.destroy();
		this.otherInstance.destroy();
	}

	@RepeatedTest(3)
	void aGrantAnnouncedAfterItsTokenWasSpentIsNotTaken() throws Exception {
		LockHandle holder = this.otherInstance.lock("id", Duration.ZERO);
		AtomicReference<Optional<LockHandle>> acquired = new AtomicReference<>();
		Thread waiter = new Thread(() -> acquired.set(this.waiterInstance.tryLock("id", Duration.ofSeconds(20), null)),
				"waiter");
		waiter.start();
		this.store.awaitQueuedAttempt();
		this.store.holdGrantAnnouncements();
		holder.close();
		waiter.join(Duration.ofSeconds(30).toMillis());
		assertThat(waiter.isAlive()).as("the waiter returned").isFalse();
		assertThat(this.store.lateClaims.get()).as("claims of the grant answered after their lease").isEqualTo(1);
		assertThat(this.store.announcedAfterSpent.get()).as("grant announced after the token was spent").isTrue();
		Optional<LockHandle> handle = acquired.get();
		assertThat(handle).as("acquired (afresh, after the undone claim)").isPresent();
		try (LockHandle held = handle.get()) {
			assertThat(this.otherInstance.isLocked("id")).as("the store holds the waiter's lock").isTrue();
			assertThat(this.otherInstance.tryLock("id", Duration.ZERO, null))
				.as("another instance while the waiter holds the lock")
				.isEmpty();
		}
	}

	/**
	 * The waiter's store: answers its claim of a grant only after the claim's lease ran
	 * out, and delivers the grant's announcement only once the engine released the
	 * claimed token (the undo), before that release returns.
	 */
	static final class LateGrantStore extends ForwardingLockStore {

		final AtomicInteger lateClaims = new AtomicInteger();

		final AtomicBoolean announcedAfterSpent = new AtomicBoolean();

		private final AtomicBoolean queued = new AtomicBoolean();

		private final AtomicBoolean holding = new AtomicBoolean();

		private final AtomicReference<Runnable> heldAnnouncement = new AtomicReference<>();

		private final AtomicReference<String> claimedOwner = new AtomicReference<>();

		LateGrantStore(InMemoryLockStore delegate) {
			super(delegate);
		}

		void awaitQueuedAttempt() {
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (!this.queued.get()) {
				assertThat(System.nanoTime() - deadline).as("the waiter queued in time").isNegative();
				Thread.onSpinWait();
			}
		}

		void holdGrantAnnouncements() {
			this.holding.set(true);
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
			AcquireReply reply = super.acquire(key, owner, leaseMillis, waitMillis);
			if (waitMillis > 0) {
				this.queued.set(true);
			}
			if (reply instanceof Acquired && this.heldAnnouncement.get() != null
					&& this.claimedOwner.compareAndSet(null, owner)) {
				// The claim's reply on its way back, past the lease it set (not a wait
				// for luck: the caller sees it after that time, whatever the machine
				// does).
				this.lateClaims.incrementAndGet();
				long until = System.nanoTime() + Duration.ofMillis(leaseMillis + 100).toNanos();
				for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
					LockSupport.parkNanos(left);
				}
			}
			return reply;
		}

		@Override
		public ReleaseReply release(String key, String owner) {
			ReleaseReply reply = super.release(key, owner);
			Runnable announcement = this.heldAnnouncement.get();
			if (owner.equals(this.claimedOwner.get()) && announcement != null
					&& this.heldAnnouncement.compareAndSet(announcement, null)) {
				this.announcedAfterSpent.set(true);
				announcement.run();
			}
			return reply;
		}

		@Override
		public ReleaseNotifications subscribe(ReleaseListener listener) {
			return super.subscribe(new ForwardingReleaseListener(listener) {

				@Override
				public void granted(String key, String owner, long fencingToken) {
					if (LateGrantStore.this.holding.get() && LateGrantStore.this.heldAnnouncement.compareAndSet(null,
							() -> listener.granted(key, owner, fencingToken))) {
						// Held back; the waiter learns of the release, and claims.
						listener.released(key);
						return;
					}
					listener.granted(key, owner, fencingToken);
				}

			});
		}

	}

}
