package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.store.LockStore;
import io.github.distlock.store.LockStoreContractTests;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

import static org.awaitility.Awaitility.await;

/**
 * The {@link LockStore} contract on a {@link QuorumLockStore} over three real
 * {@code redis-server} processes. Leases and fencing records are made to run out with
 * {@code PEXPIRE 1} on every node.
 */
class QuorumLockStoreContractTests extends LockStoreContractTests {

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
	protected LockStore createStore() {
		nodes.commandOnEvery("FLUSHALL");
		return nodes.newStore();
	}

	@AfterEach
	void closeStore() {
		((QuorumLockStore) this.store).close();
	}

	@Override
	protected void letLeaseRunOut(String key) {
		expireNow(key);
	}

	@Override
	protected void forgetKey(String key) {
		expireNow(key);
		expireNow(LockKeys.fenceKey(key));
		expireNow(RedisQuorumFenceRecords.recordKey(key));
	}

	private static void expireNow(String key) {
		for (RedisServer server : nodes.servers()) {
			server.command("PEXPIRE", key, "1");
			await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(server.command("EXISTS", key)));
		}
	}

}
