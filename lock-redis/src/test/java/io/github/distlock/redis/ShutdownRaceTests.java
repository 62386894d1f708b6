package io.github.distlock.redis;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockHandle;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Shutdown while a command is in flight: an acquisition or hand-over that Redis applied
 * after {@link io.github.distlock.core.LockEngine#destroy()} began is undone, and the
 * release subscription is never kept.
 */
class ShutdownRaceTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void anAcquireAppliedWhileTheServiceShutsDownIsUndone() {
		ScriptInterceptingTemplate template = new ScriptInterceptingTemplate(this.clients.newConnectionFactory());
		LockEngine service = RedisEngines.blocking(template, RedisLockSettings.defaults());
		template.intercept(Thread.currentThread(), LockScripts.ACQUIRE, (proceed) -> {
			Object reply = proceed.get();
			// Redis applied the acquire; its reply is on the way while the application
			// shuts down.
			service.destroy();
			return reply;
		});
		try {
			assertThatExceptionOfType(LockNotAcquiredException.class)
				.isThrownBy(() -> service.tryLock("shut-attempt", Duration.ofSeconds(5), null))
				.withMessageContaining("shut down");
		}
		finally {
			template.stopIntercepting(Thread.currentThread());
		}
		assertThat(redis.keys("distlock:{shut-attempt}")).isEmpty();
		assertThat(service.heldLocks()).isEmpty();
		assertThat(service.trackedLockCount()).isZero();
	}

	@Test
	void aHandOverAppliedWhileTheServiceShutsDownIsUndone() throws Exception {
		ScriptInterceptingTemplate template = new ScriptInterceptingTemplate(this.clients.newConnectionFactory());
		LockEngine service = RedisEngines.blocking(template, RedisLockSettings.defaults());
		LockHandle held = service.lock("shut-hand-over", Duration.ZERO);
		AtomicReference<Throwable> waiterOutcome = new AtomicReference<>();
		Thread waiter = new Thread(() -> {
			try {
				service.tryLock("shut-hand-over", Duration.ofSeconds(30), null).ifPresent(LockHandle::close);
			}
			catch (Throwable ex) {
				waiterOutcome.set(ex);
			}
		});
		waiter.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> EngineProbe.isQueuedWaiter(waiter));
		template.intercept(Thread.currentThread(), LockScripts.HAND_OVER, (proceed) -> {
			Object reply = proceed.get();
			service.destroy();
			return reply;
		});
		try {
			held.close();
		}
		finally {
			template.stopIntercepting(Thread.currentThread());
		}
		waiter.join(10_000);
		assertThat(waiter.isAlive()).isFalse();
		assertThat(waiterOutcome.get()).isInstanceOf(LockNotAcquiredException.class).hasMessageContaining("shut down");
		assertThat(redis.keys("distlock:{shut-hand-over}")).isEmpty();
		assertThat(service.heldLocks()).isEmpty();
		assertThat(service.trackedLockCount()).isZero();
	}

	@Test
	void aSubscriptionConfirmedAfterCloseIsClosedToo() throws Exception {
		LettuceConnectionFactory factory = this.clients.newConnectionFactory();
		String channel = "distlock:released-race";
		ReleaseSubscription subscription = new ReleaseSubscription(factory, channel, (key) -> {
		});
		AtomicReference<Boolean> active = new AtomicReference<>();
		Thread subscriber = new Thread(
				() -> active.set(subscription.ensureActive(System.nanoTime() + TimeUnit.SECONDS.toNanos(30))));
		redis.server().pause();
		try {
			subscriber.start();
			// Connecting and subscribing wait for the paused server.
			await().atMost(Duration.ofSeconds(10)).until(() -> isOpening(subscriber));
			subscription.close();
		}
		finally {
			redis.server().resume();
		}
		subscriber.join(10_000);
		assertThat(subscriber.isAlive()).isFalse();
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(redis.command("PUBSUB", "NUMSUB", channel)).isEqualTo(channel + "\n0"));
		assertThat(subscription.ensureActive(System.nanoTime())).isFalse();
	}

	private static boolean isOpening(Thread thread) {
		Thread.State state = thread.getState();
		return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
				&& Arrays.stream(thread.getStackTrace())
					.anyMatch((frame) -> frame.getClassName().equals(ReleaseSubscription.class.getName())
							&& frame.getMethodName().equals("open"));
	}

}
