package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Release announcements on a real Redis Cluster travel by sharded pub/sub: a waiter of
 * another instance subscribes to the lock's shard channel at the master serving the
 * lock's slot, is woken by the release announced there, and no classic channel is
 * subscribed anywhere.
 */
class ClusterReleaseNotificationTests {

	private static ScratchCluster cluster;

	@AutoClose
	private final ClusterLockClients clients = new ClusterLockClients(cluster.nodes());

	private final List<LockEngine> engines = new ArrayList<>();

	@BeforeAll
	static void startCluster() {
		cluster = new ScratchCluster();
	}

	@AfterAll
	static void stopCluster() {
		cluster.close();
	}

	@org.junit.jupiter.api.AfterEach
	void stopEngines() {
		this.engines.forEach(LockEngine::destroy);
	}

	@Test
	void waiterOfAnotherInstanceIsWokenByTheShardedAnnouncementOfTheRelease() throws Exception {
		RedisLockService holder = this.clients.newService();
		CountingLockStore waiterStore = new CountingLockStore(this.clients.newStore());
		LockEngine waiter = engine(waiterStore);
		ConcurrentHashMap<String, CountDownLatch> refused = new ConcurrentHashMap<>();
		waiterStore.onRefused((key) -> {
			CountDownLatch latch = refused.get(key);
			if (latch != null) {
				latch.countDown();
			}
		});
		int rounds = 45;
		Set<Integer> mastersUsed = new HashSet<>();
		for (int i = 0; i < rounds; i++) {
			String id = "order-" + i;
			String key = waiterStore.key(id);
			RedisServer master = cluster.masterOf(key);
			mastersUsed.add(master.port());
			CountDownLatch waiting = new CountDownLatch(1);
			refused.put(key, waiting);
			LockHandle held = holder.lock(id, Duration.ZERO);
			CompletableFuture<Optional<LockHandle>> acquired = CompletableFuture
				.supplyAsync(() -> waiter.tryLock(id, Duration.ofSeconds(10), null));
			assertThat(waiting.await(10, TimeUnit.SECONDS)).as("the waiter tried %s once", id).isTrue();
			// Subscribed (before its next attempt) at the master of the lock's slot.
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(master.command("PUBSUB", "SHARDCHANNELS", "*"))
					.contains(LockKeys.releaseShardChannel(key)));
			held.close();
			Optional<LockHandle> got = acquired.get(10, TimeUnit.SECONDS);
			assertThat(got).as("the waiter got %s after its release", id).isPresent();
			got.get().close();
		}
		for (RedisServer node : cluster.masters) {
			assertThat(node.command("PUBSUB", "NUMSUB", "distlock:released")).endsWith("\n0");
			assertThat(node.command("PUBSUB", "CHANNELS", "*")).isEmpty();
		}
		long afterAnnouncement = waiterStore.acquiredAfterAnnouncement();
		long withoutAnnouncement = waiterStore.acquiredWithoutAnnouncement();
		System.out.println(
				"[cluster-notify] rounds=" + rounds + " masters=" + mastersUsed.size() + " acquiredAfterAnnouncement="
						+ afterAnnouncement + " acquiredOnReCheck=" + withoutAnnouncement + " announcementsReceived="
						+ waiterStore.announcements() + " acquireRoundTrips=" + waiterStore.attempts());
		assertThat(mastersUsed).hasSize(cluster.masters.size());
		assertThat(afterAnnouncement + withoutAnnouncement).isEqualTo(rounds);
		// Woken by the announcement, not by its re-check (0.5 to 1 s after its refused
		// attempt, the holder's lease being 30 s): a re-check can beat the message only
		// by
		// the few ms it travels, and without announcements none would come first.
		assertThat(afterAnnouncement).isGreaterThanOrEqualTo(rounds * 9 / 10);

	}

	private LockEngine engine(CountingLockStore store) {
		LockEngine engine = new LockEngine(store, Duration.ofSeconds(30));
		this.engines.add(engine);
		return engine;
	}

}
