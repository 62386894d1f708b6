package io.github.distlock.redis;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fallback where sharded pub/sub is unavailable, as on a cluster before Redis 7: on a
 * real cluster whose nodes know neither {@code SPUBLISH} nor {@code SSUBSCRIBE} (renamed
 * away), the release scripts still release (the failed {@code SPUBLISH} is caught) and
 * announce by a classic {@code PUBLISH} on the lock's channel, which the cluster
 * broadcasts; the waiter subscribes with {@code SUBSCRIBE} and is woken by it.
 */
class ClusterWithoutShardedPubSubTests {

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension(() -> RedisCluster.builder()
		.arg("rename-command", "SPUBLISH", "")
		.arg("rename-command", "SSUBSCRIBE", "")
		.start());

	@AutoClose
	private final RedisLockClients clients = RedisLockClients.onCluster(redis.nodes());

	@Test
	void releasesAreBroadcastAndWakeTheWaiterOfAnotherInstance() throws Exception {
		LockEngine holder = this.clients.newService();
		CountingLockStore waiterStore = new CountingLockStore(this.clients.newStore());
		LockEngine waiter = new LockEngine(waiterStore, Duration.ofSeconds(30));
		try {
			int rounds = 9;
			for (int i = 0; i < rounds; i++) {
				String id = "legacy-" + i;
				String channel = LockKeys.releaseShardChannel(waiterStore.key(id));
				CountDownLatch refused = new CountDownLatch(1);
				waiterStore.onRefused((key) -> refused.countDown());
				LockHandle held = holder.lock(id, Duration.ZERO);
				CompletableFuture<Optional<LockHandle>> acquired = CompletableFuture
					.supplyAsync(() -> waiter.tryLock(id, Duration.ofSeconds(10), null));
				assertThat(refused.await(10, TimeUnit.SECONDS)).isTrue();
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(
							redis.cluster().servers().stream().map((node) -> subscribers(node, channel)).toList())
						.contains(1));
				held.close();
				Optional<LockHandle> got = acquired.get(10, TimeUnit.SECONDS);
				assertThat(got).isPresent();
				got.get().close();
			}
			System.out.println("[cluster-legacy-notify] rounds=" + rounds + " acquiredAfterAnnouncement="
					+ waiterStore.acquiredAfterAnnouncement() + " acquiredOnReCheck="
					+ waiterStore.acquiredWithoutAnnouncement());
			assertThat(waiterStore.acquiredAfterAnnouncement()).isGreaterThanOrEqualTo(rounds - 1);
		}
		finally {
			waiter.destroy();
		}
	}

	private static int subscribers(RedisServer node, String channel) {
		String[] reply = node.command("PUBSUB", "NUMSUB", channel).split("\n");
		return Integer.parseInt(reply[1]);
	}

}
