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
import java.util.function.Function;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Release announcements on a real Redis Cluster (3 masters, 3 replicas) travel by sharded
 * pub/sub: a waiter of another instance subscribes to the lock's shard channel at the
 * master serving the lock's slot, is woken by the release announced there, and no classic
 * channel is subscribed anywhere. The subscription follows the slot to another master
 * after a failover, a SIGKILL of the master and a slot migration.
 */
class ClusterReleaseNotificationTests {

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	@AutoClose
	private final RedisLockClients clients = RedisLockClients.onCluster(redis.nodes());

	private final List<LockEngine> engines = new ArrayList<>();

	private final LockEngine holder = this.clients.newService();

	private final CountingLockStore waiterStore = new CountingLockStore(this.clients.newStore());

	private final ConcurrentHashMap<String, CountDownLatch> refused = new ConcurrentHashMap<>();

	private final LockEngine waiter = engine(this.waiterStore);

	@AfterEach
	void stopEngines() {
		this.engines.forEach(LockEngine::destroy);
	}

	@Test
	void waiterOfAnotherInstanceIsWokenByTheShardedAnnouncementOfTheRelease() throws Exception {
		RedisCluster cluster = redis.cluster();
		int rounds = 45;
		Set<Integer> mastersUsed = new HashSet<>();
		for (int i = 0; i < rounds; i++) {
			String id = "order-" + i;
			mastersUsed.add(cluster.masterOf(this.waiterStore.key(id)).port());
			waitThenAcquireAfterRelease(id, (master) -> master);
		}
		for (RedisServer node : cluster.servers()) {
			assertThat(node.command("PUBSUB", "NUMSUB", "distlock:released")).endsWith("\n0");
			assertThat(node.command("PUBSUB", "CHANNELS", "*")).isEmpty();
		}
		long afterAnnouncement = this.waiterStore.acquiredAfterAnnouncement();
		long withoutAnnouncement = this.waiterStore.acquiredWithoutAnnouncement();
		System.out.println(
				"[cluster-notify] rounds=" + rounds + " masters=" + mastersUsed.size() + " acquiredAfterAnnouncement="
						+ afterAnnouncement + " acquiredOnReCheck=" + withoutAnnouncement + " announcementsReceived="
						+ this.waiterStore.announcements() + " acquireRoundTrips=" + this.waiterStore.attempts());
		assertThat(mastersUsed).hasSize(3);
		assertThat(afterAnnouncement + withoutAnnouncement).isEqualTo(rounds);
		// Woken by the announcement, not by its re-check (0.5 to 1 s after its refused
		// attempt, the holder's lease being 30 s): a re-check can beat the message only
		// by
		// the few ms it travels, and without announcements none would come first.
		assertThat(afterAnnouncement).isGreaterThanOrEqualTo(rounds * 9 / 10);
	}

	@Test
	void subscriptionFollowsTheSlotToTheNewMasterAfterAFailover() throws Exception {
		waitThenAcquireAfterRelease("failover", (master) -> redis.cluster().failover(master));
		printAndAssertWokenByAnnouncement("failover");
	}

	@Test
	void subscriptionFollowsTheSlotToTheNewMasterAfterTheMasterIsKilled() throws Exception {
		waitThenAcquireAfterRelease("kill", (master) -> redis.cluster().killMaster(master));
		printAndAssertWokenByAnnouncement("kill");
	}

	@Test
	void subscriptionFollowsTheSlotToAnotherMasterAfterASlotMigration() throws Exception {
		waitThenAcquireAfterRelease("migrate", (master) -> {
			RedisCluster cluster = redis.cluster();
			int slot = cluster.keySlot(this.waiterStore.key("migrate"));
			RedisServer target = cluster.masters().stream().filter((m) -> !m.equals(master)).findFirst().orElseThrow();
			cluster.migrateSlot(slot, master, target);
			return target;
		});
		printAndAssertWokenByAnnouncement("migrate");
	}

	@Test
	void channelIsUnsubscribedOnceNobodyHereWaitsForItAnyLonger() {
		RedisCluster cluster = redis.cluster();
		String key = this.waiterStore.key("idle");
		String channel = LockKeys.releaseShardChannel(key);
		try (ShardedReleaseSubscription subscription = new ShardedReleaseSubscription(
				this.clients.newConnectionFactory(), (released) -> {
				}, Duration.ofMillis(300))) {
			assertThat(subscription.ensureActive(key, System.nanoTime() + TimeUnit.SECONDS.toNanos(10))).isTrue();
			assertThat(cluster.masterOf(key).command("PUBSUB", "SHARDCHANNELS", "*")).contains(channel);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(cluster.masterOf(key).command("PUBSUB", "SHARDCHANNELS", "*"))
					.doesNotContain(channel));
			assertThat(subscription.subscribedChannels()).isZero();
			// Wanted again: subscribed again.
			assertThat(subscription.ensureActive(key, System.nanoTime() + TimeUnit.SECONDS.toNanos(10))).isTrue();
			assertThat(cluster.masterOf(key).command("PUBSUB", "SHARDCHANNELS", "*")).contains(channel);
		}
	}

	/**
	 * The holder takes {@code id}, the waiter waits for it until subscribed at the
	 * master, {@code disturb} moves the slot (and answers the master serving it after),
	 * the waiter is subscribed there, and the holder's release lets the waiter in.
	 */
	private void waitThenAcquireAfterRelease(String id, Function<RedisServer, RedisServer> disturb) throws Exception {
		String key = this.waiterStore.key(id);
		String channel = LockKeys.releaseShardChannel(key);
		CountDownLatch waiting = new CountDownLatch(1);
		this.refused.put(key, waiting);
		LockHandle held = this.holder.lock(id, Duration.ZERO);
		CompletableFuture<Optional<LockHandle>> acquired = CompletableFuture
			.supplyAsync(() -> this.waiter.tryLock(id, Duration.ofSeconds(30), null));
		assertThat(waiting.await(10, TimeUnit.SECONDS)).as("the waiter tried %s once", id).isTrue();
		RedisServer before = redis.cluster().masterOf(key);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(before.command("PUBSUB", "SHARDCHANNELS", "*")).contains(channel));
		RedisServer after = disturb.apply(before);
		// The waiter re-subscribes at the slot's master now (its re-check at least once a
		// second tells the subscription the channel is still wanted).
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(after.command("PUBSUB", "SHARDCHANNELS", "*")).contains(channel));
		// The holder's client learns the new topology too (Lettuce's refresh), or its
		// release would go to the old master and the lock would run out with its lease.
		await().atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.until(() -> this.holder.remainingLease(id).isPresent());
		held.close();
		Optional<LockHandle> got = acquired.get(30, TimeUnit.SECONDS);
		assertThat(got).as("the waiter got %s after its release", id).isPresent();
		got.get().close();
	}

	private void printAndAssertWokenByAnnouncement(String scenario) {
		System.out.println("[cluster-notify] " + scenario + ": acquiredAfterAnnouncement="
				+ this.waiterStore.acquiredAfterAnnouncement() + " acquiredOnReCheck="
				+ this.waiterStore.acquiredWithoutAnnouncement() + " acquireRoundTrips=" + this.waiterStore.attempts());
		assertThat(this.waiterStore.acquiredAfterAnnouncement()).isEqualTo(1);
	}

	private LockEngine engine(CountingLockStore store) {
		store.onRefused((key) -> {
			CountDownLatch latch = this.refused.get(key);
			if (latch != null) {
				latch.countDown();
			}
		});
		LockEngine engine = new LockEngine(store, Duration.ofSeconds(30));
		this.engines.add(engine);
		return engine;
	}

}
