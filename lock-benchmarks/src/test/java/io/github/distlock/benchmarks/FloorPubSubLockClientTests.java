package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code floor-pubsub}'s waiter parks instead of polling, and a release it is not told of
 * does not hang it. Counts commands, never asserts timing: the bound on attempts follows
 * from the 100 ms re-check, which load can only make rarer.
 */
class FloorPubSubLockClientTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@Test
	void theWaiterParksUntilTheReleaseMessageInsteadOfPolling() throws Exception {
		try (FloorPubSubLockClient holder = FloorPubSubLockClient.on(redis.server(), WAIT);
				FloorPubSubLockClient waiter = FloorPubSubLockClient.on(redis.server(), WAIT)) {
			CostMeter.Costs costs = new CostMeter.Costs();
			AtomicBoolean held = new AtomicBoolean();
			AtomicBoolean overlapped = new AtomicBoolean();
			new CostMeter(List.of(redis.server())).measure(costs, () -> {
				CompletableFuture<Boolean> waiting = new CompletableFuture<>();
				assertThat(holder.tryRunLocked("parked", () -> {
					held.set(true);
					Thread thread = new Thread(() -> waiting
						.complete(waiter.tryRunLocked("parked", () -> overlapped.compareAndSet(false, held.get()))));
					thread.start();
					sleep(300);
					held.set(false);
				})).isTrue();
				assertThat(waiting.orTimeout(10, TimeUnit.SECONDS).join()).isTrue();
			});
			assertThat(overlapped).isFalse();
			Map<?, ?> commands = (Map<?, ?>) costs.perOperation(1).get("redisCommandsPerOpByCommand");
			// The holder's SET, the waiter's refused first one, at most one per 100 ms
			// re-check of the 300 ms hold and the one that succeeds; a spinning waiter
			// sends thousands.
			assertThat(((Number) commands.get("set")).doubleValue()).isLessThanOrEqualTo(7);
			assertThat(((Number) commands.get("publish")).doubleValue()).isEqualTo(2);
		}
	}

	@Test
	void aReleaseWithoutAMessageIsFoundByTheRecheck() throws Exception {
		try (FloorPubSubLockClient waiter = FloorPubSubLockClient.on(redis.server(), WAIT)) {
			redis.server().command("SET", "floor-pubsub:lost", "someone else");
			CountDownLatch acquired = new CountDownLatch(1);
			Thread thread = new Thread(() -> {
				if (waiter.tryRunLocked("lost", () -> {
				})) {
					acquired.countDown();
				}
			});
			thread.start();
			sleep(150);
			// Deleted by hand: no PUBLISH, no message.
			redis.server().command("DEL", "floor-pubsub:lost");
			assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

}
