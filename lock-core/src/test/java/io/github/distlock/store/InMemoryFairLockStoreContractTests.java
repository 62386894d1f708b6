package io.github.distlock.store;

import java.time.Duration;
import java.time.Instant;

/**
 * The fair-lock contract on an {@link InMemoryLockStore} whose clock stands still until a
 * test lets a lease or the queue's wait times run out.
 */
class InMemoryFairLockStoreContractTests extends FairLockStoreContractTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	@Override
	protected LockStore createStore() {
		return new InMemoryLockStore(this.clock);
	}

	@Override
	protected void letLeaseRunOut(String key) {
		this.clock.advance(Duration.ofMillis(this.store.remainingLeaseMillis(key)));
	}

	@Override
	protected void letQueueEntriesRunOut(String key, long waitMillis) {
		// The clock stood still since they were queued.
		this.clock.advance(Duration.ofMillis(waitMillis));
	}

}
