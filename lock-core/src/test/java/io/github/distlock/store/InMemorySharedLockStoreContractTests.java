package io.github.distlock.store;

import java.time.Duration;
import java.time.Instant;

/**
 * The shared-hold contract on an {@link InMemoryLockStore} whose clock stands still until
 * a test lets time pass.
 */
class InMemorySharedLockStoreContractTests extends SharedLockStoreContractTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	@Override
	protected LockStore createStore() {
		return new InMemoryLockStore(this.clock);
	}

	@Override
	protected void letTimePass(long millis) {
		this.clock.advance(Duration.ofMillis(millis));
	}

}
