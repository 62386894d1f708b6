package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.core.LockEngine;
import io.github.distlock.core.ReactiveLockEngine;
import io.github.distlock.core.ReactiveLockServiceContractTests;
import io.github.distlock.core.LockServiceContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import io.github.distlock.core.MultiLockServiceContractTests;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The {@link io.github.distlock.LockService} contract on {@link LockEngine}s over
 * {@link QuorumLockStore}s, each with its own connections, on three real
 * {@code redis-server} processes.
 */
class QuorumLockServiceContractTests extends LockServiceContractTests {

	private static QuorumNodes nodes;

	@BeforeAll
	static void startNodes() {
		nodes = new QuorumNodes(3, false);
	}

	@AfterAll
	static void stopNodes() {
		nodes.close();
	}

	@Override
	protected LockEngine createService() {
		return nodes.newService(Duration.ofSeconds(30));
	}

	@Test
	void sharedHoldsAreRefusedNamingWhatTheyNeed() {
		LockEngine service = createService();
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(service::read)
			.withMessage("READ locks are not supported by the lock store QuorumLockStore: they need"
					+ " distributed-lock.store=redis (without distributed-lock.replication.min-replicas) or"
					+ " distributed-lock.store=in-memory");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> service.permits(3))
			.withMessageStartingWith("Permits are not supported by the lock store QuorumLockStore");
		assertThat(service.permits(1)).isSameAs(service);
	}

	/**
	 * The multi-key contract on the same services.
	 */
	@Nested
	class MultiKey extends MultiLockServiceContractTests {

		@Override
		protected LockEngine createService() {
			return nodes.newService(Duration.ofSeconds(30));
		}

	}

	/**
	 * The reactive contract on the same nodes: the quorum's blocking votes offloaded, a
	 * fresh owner token for every attempt after a refusal (the quorum releases refused
	 * tokens).
	 */
	@Nested
	class Reactive extends ReactiveLockServiceContractTests {

		private final List<QuorumLockStore> stores = new ArrayList<>();

		@Override
		protected ReactiveLockEngine createService(Duration leaseTime) {
			QuorumLockStore store = nodes.newStore();
			this.stores.add(store);
			return new ReactiveLockEngine(store, leaseTime);
		}

		@AfterEach
		void closeStores() {
			this.stores.forEach(QuorumLockStore::close);
		}

	}

}
