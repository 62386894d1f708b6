package io.github.distlock.core;

import java.time.Duration;

import io.github.distlock.store.InMemoryLockStore;

/**
 * The {@link io.github.distlock.ReactiveLockService} contract on the
 * {@link ReactiveLockEngine} over one shared {@link InMemoryLockStore} on the system
 * clock.
 */
class InMemoryReactiveLockServiceContractTests extends ReactiveLockServiceContractTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	@Override
	protected ReactiveLockEngine createService(Duration leaseTime) {
		return new ReactiveLockEngine(this.store, leaseTime);
	}

}
