package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.LockHandle;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.Unknown;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A free lock is acquired when the store answers again after it did not for longer than
 * the lease (issue 39, 4: Redis paused 1 s, {@code tryLock} of a free lock with an 800 ms
 * lease was not acquired, and its waiter sent 1,398 to 2,470 scripts meanwhile).
 * <p>
 * Two defects made it: the answered attempt's lease was counted from the first,
 * unanswered one, although an acquire that finds its own token resets the lease (the
 * store's contract), so the acquisition was undone as "acquired only after its lease had
 * run out"; and that undo released the token of a queued acquisition, which its next
 * attempts kept sending, refused by the store as late copies of an ended one.
 */
class UnansweredAcquireLeaseTests {

	private static final Duration LEASE = Duration.ofMillis(500);

	private final SlowStore store = new SlowStore(new InMemoryLockStore());

	private final LockEngine engine = new LockEngine(this.store, LEASE);

	@AfterEach
	void shutDown() {
		this.engine.destroy();
	}

	@Test
	void aFreeLockIsAcquiredOnceTheStoreAnswersAfterLongerThanTheLease() {
		// Applied but unanswered for two leases, then answered.
		this.store.unansweredFor(LEASE.multipliedBy(2));
		Optional<LockHandle> handle = this.engine.tryLock("id", Duration.ofSeconds(10), null);
		assertThat(handle).as("acquired").isPresent();
		assertThat(this.store.acquires.get()).as("acquire attempts").isLessThan(100);
		handle.get().close();
	}

	@Test
	void anAcquireAnsweredOnlyAfterItsLeaseIsUndoneAndTheLockTakenAgain() {
		// The first reply comes after the lease it set has run out.
		this.store.firstReplyAfter(LEASE.plusMillis(200));
		Optional<LockHandle> handle = this.engine.tryLock("id", Duration.ofSeconds(10), null);
		assertThat(handle).as("acquired").isPresent();
		assertThat(this.store.acquires.get()).as("acquire attempts").isLessThan(100);
		handle.get().close();
	}

	/**
	 * Applies every acquire; answers {@link Unknown} for a while after the first, or
	 * answers the first one late.
	 */
	static final class SlowStore extends ForwardingLockStore {

		final AtomicInteger acquires = new AtomicInteger();

		private final AtomicLong firstAt = new AtomicLong();

		private volatile long unansweredNanos;

		private volatile long firstReplyAfterNanos;

		SlowStore(InMemoryLockStore delegate) {
			super(delegate);
		}

		void unansweredFor(Duration duration) {
			this.unansweredNanos = duration.toNanos();
		}

		void firstReplyAfter(Duration duration) {
			this.firstReplyAfterNanos = duration.toNanos();
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis) {
			return slowly(super.acquire(key, owner, leaseMillis));
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
			return slowly(super.acquire(key, owner, leaseMillis, waitMillis));
		}

		private AcquireReply slowly(AcquireReply reply) {
			long now = System.nanoTime();
			boolean first = this.acquires.getAndIncrement() == 0;
			if (first) {
				this.firstAt.set(now);
			}
			if (now - this.firstAt.get() < this.unansweredNanos) {
				return new Unknown(new IllegalStateException("no reply"));
			}
			if (first && this.firstReplyAfterNanos > 0) {
				// The reply on its way back (not a wait for luck: the caller sees it
				// after that time, whatever the machine does).
				long until = now + this.firstReplyAfterNanos;
				for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
					LockSupport.parkNanos(left);
				}
			}
			return reply;
		}

	}

}
