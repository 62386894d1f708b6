package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.core.LockEngine;
import io.github.distlock.core.MultiLockServiceContractTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The multi-key contract on {@link LockEngine}s over {@link QuorumLockStore}s, each with
 * its own connections, on three real {@code redis-server} processes.
 */
class QuorumMultiLockServiceContractTests extends MultiLockServiceContractTests {

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

}
