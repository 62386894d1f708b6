package io.github.distlock.core;

import java.time.Duration;

import io.github.distlock.store.InMemoryLockStore;
import org.junit.jupiter.api.Nested;

/**
 * The {@link io.github.distlock.LockService} contract on the {@link LockEngine} over one
 * shared {@link InMemoryLockStore} on the system clock: the engine's own deadlines run on
 * {@link System#nanoTime()}, so short real leases run out while the tests wait (bounded).
 */
class InMemoryLockServiceContractTests extends LockServiceContractTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	@Override
	protected LockEngine createService() {
		return new LockEngine(this.store, Duration.ofSeconds(30));
	}

	/**
	 * The multi-key contract on the same services.
	 */
	@Nested
	class MultiKey extends MultiLockServiceContractTests {

		@Override
		protected LockEngine createService() {
			return new LockEngine(InMemoryLockServiceContractTests.this.store, Duration.ofSeconds(30));
		}

	}

	/**
	 * The contract of READ holds and permits on the same store.
	 */
	@Nested
	class Shared extends SharedLockServiceContractTests {

		@Override
		protected LockEngine createService(Duration leaseTime) {
			return new LockEngine(InMemoryLockServiceContractTests.this.store, leaseTime);
		}

	}

}
