package io.github.distlock.core;

import java.time.Duration;

import io.github.distlock.store.InMemoryLockStore;

/**
 * The multi-key contract on engines over one shared {@link InMemoryLockStore}.
 */
class InMemoryMultiLockServiceContractTests extends MultiLockServiceContractTests {

	private final InMemoryLockStore store = new InMemoryLockStore();

	@Override
	protected LockEngine createService() {
		return new LockEngine(this.store, Duration.ofSeconds(30));
	}

}
