package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.Acquired;
import io.github.distlock.store.ExtendReply;
import io.github.distlock.store.Extended;
import io.github.distlock.store.LeaseReset;
import io.github.distlock.store.NotOwned;
import io.github.distlock.support.LogSafe;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every lock script stays in one slot on a real Redis Cluster: the lock key, its fence
 * key, its release receipt, its fair queue and its shard channel share the slot the
 * server computes ({@code CLUSTER KEYSLOT}), for ordinary, hostile and hashed long ids,
 * and the scripts (acquire, contended acquire, release announcing by {@code SPUBLISH},
 * fair acquire, queueing and the grant of a release) run on the master of that slot
 * without a {@code CROSSSLOT} refusal; a batch of renewals across slots is cut per slot.
 */
class ClusterKeySlotTests {

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	@AutoClose
	private final RedisLockClients clients = RedisLockClients.onCluster(redis.nodes());

	@Test
	void everyKeyAndTheChannelOfALockShareTheSlotOfItsHashTag() {
		RedisCluster cluster = redis.cluster();
		RedisServer anyNode = cluster.masters().get(0);
		LockKeys keys = new LockKeys("distlock:");
		List<String> ids = new ArrayList<>(HostileKeyTests.HOSTILE_IDS);
		for (int i = 0; i < 1_000; i++) {
			ids.add("order:" + i);
		}
		ids.add("z".repeat(LockKeys.MAX_ENCODED_LENGTH + 1));
		ids.add("{".repeat(LockKeys.MAX_ENCODED_LENGTH));
		Map<Integer, Integer> idsPerMaster = new HashMap<>();
		for (String id : ids) {
			String key = keys.lockKey(id);
			int slot = Integer.parseInt(anyNode.command("CLUSTER", "KEYSLOT", key));
			for (String sibling : List.of(LockKeys.fenceKey(key), LockKeys.receiptKey(key), LockKeys.queueKey(key),
					LockKeys.waitingKey(key), LockKeys.releaseShardChannel(key))) {
				assertThat(Integer.parseInt(anyNode.command("CLUSTER", "KEYSLOT", sibling)))
					.as("slot of %s, of lock id '%s'", LogSafe.text(sibling), LogSafe.text(id))
					.isEqualTo(slot);
			}
			idsPerMaster.merge(cluster.masterForSlot(slot).port(), 1, Integer::sum);
		}
		System.out.println("[cluster-keyslot] ids=" + ids.size() + " idsPerMaster=" + idsPerMaster.values());
		assertThat(idsPerMaster).hasSize(3);
	}

	@ParameterizedTest(name = "async={0}")
	@ValueSource(booleans = { false, true })
	void aBatchOfLeaseResetsAcrossEverySlotRunsOnEachSlotsMaster(boolean async) {
		RedisLockStore store = this.clients.newStore();
		List<LeaseReset> resets = new ArrayList<>();
		List<String> ids = new ArrayList<>(HostileKeyTests.HOSTILE_IDS);
		for (int i = 0; i < 300; i++) {
			ids.add("order:" + i);
		}
		for (String id : ids) {
			String key = store.key(id);
			String owner = "owner-" + resets.size();
			assertThat(store.acquire(key, owner, 1_000)).isInstanceOf(Acquired.class);
			resets.add(new LeaseReset(key, owner, 60_000));
		}
		// And one lock renewed by an owner that does not hold it.
		resets.add(new LeaseReset(store.key("order:0"), "stranger", 60_000));
		List<ExtendReply> replies = async ? store.async(Runnable::run).extendAll(resets).toCompletableFuture().join()
				: store.extendAll(resets);
		assertThat(replies.subList(0, ids.size())).allMatch(Extended.INSTANCE::equals);
		assertThat(replies.get(ids.size())).isEqualTo(NotOwned.INSTANCE);
		for (String id : ids) {
			assertThat(store.remainingLeaseMillis(store.key(id))).as(LogSafe.text(id)).isGreaterThan(1_000);
		}
	}

	@Test
	void contendedLocksOfHostileIdsAreAcquiredReleasedAndAnnouncedOnTheirMaster() {
		LockEngine first = this.clients.newService();
		LockEngine second = this.clients.newService();
		for (String id : HostileKeyTests.HOSTILE_IDS) {
			try (LockHandle held = first.lock(id, Duration.ZERO)) {
				// Refused: flags the lock contended, so its release announces by
				// SPUBLISH.
				assertThat(second.tryLock(id, Duration.ZERO, null)).as("'%s' locked", LogSafe.text(id)).isEmpty();
			}
			try (LockHandle next = second.lock(id, Duration.ZERO)) {
				assertThat(next.fencingToken()).isPositive();
			}
		}
		assertThat(first.locksLost() + second.locksLost()).isZero();
	}

	@Test
	void fairLocksOfHostileIdsAreQueuedAndGrantedOnTheirMaster() throws Exception {
		LockService first = this.clients.newService().fair();
		LockService second = this.clients.newService().fair();
		LockKeys keys = new LockKeys("distlock:");
		int granted = 0;
		for (String id : HostileKeyTests.HOSTILE_IDS) {
			LockHandle held = first.lock(id, Duration.ZERO);
			AtomicReference<Throwable> failure = new AtomicReference<>();
			AtomicLong token = new AtomicLong();
			Thread waiter = new Thread(() -> {
				try (LockHandle next = second.lock(id, Duration.ofSeconds(20))) {
					token.set(next.fencingToken());
				}
				catch (Throwable ex) {
					failure.set(ex);
				}
			});
			waiter.start();
			String waiting = LockKeys.waitingKey(keys.lockKey(id));
			RedisServer master = redis.cluster()
				.masterForSlot(
						Integer.parseInt(redis.cluster().masters().get(0).command("CLUSTER", "KEYSLOT", waiting)));
			await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(master.command("HLEN", waiting)));
			held.close();
			waiter.join(TimeUnit.SECONDS.toMillis(30));
			assertThat(failure.get()).as("'%s'", LogSafe.text(id)).isNull();
			assertThat(token.get()).isGreaterThan(held.fencingToken());
			granted++;
		}
		System.out.println("[cluster-keyslot] fair locks granted across instances: " + granted);
	}

}
