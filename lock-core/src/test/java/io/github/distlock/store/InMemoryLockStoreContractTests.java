package io.github.distlock.store;

import java.time.Duration;
import java.time.Instant;

/**
 * The {@link LockStore} contract on an {@link InMemoryLockStore} whose clock stands still
 * until a test lets a lease run out.
 */
class InMemoryLockStoreContractTests extends LockStoreContractTests {

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
	protected void forgetKey(String key) {
		this.clock.advance(Duration.ofMillis(Math.max(0, this.store.remainingLeaseMillis(key))));
		this.clock.advance(InMemoryLockStore.DEFAULT_FENCING_RETENTION);
	}

}
