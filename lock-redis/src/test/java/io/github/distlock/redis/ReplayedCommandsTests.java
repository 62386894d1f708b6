package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;

import ch.qos.logback.classic.Level;
import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce re-sends commands that were written but not answered when it reconnects, so a
 * script may run twice. A replayed acquire or hand-over must not leave a lock that nobody
 * knows it holds, and a replayed release or hand-over must not report a lock it released
 * as lost.
 */
class ReplayedCommandsTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private LettuceConnectionFactory factory;

	private RedisLockCommands commands;

	private final String key = new LockKeys("distlock:").lockKey("replayed");

	@BeforeEach
	void connect() {
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port()));
		this.factory.afterPropertiesSet();
		this.factory.start();
		this.commands = new RedisLockCommands(new StringRedisTemplate(this.factory), "distlock:released", 60_000);
	}

	@AfterEach
	void disconnect() {
		this.factory.destroy();
	}

	@Test
	void aReplayedAcquireCountsAsAcquiredWithANewerToken() {
		long first = this.commands.acquire(this.key, "owner-a", 30_000);
		long replayed = this.commands.acquire(this.key, "owner-a", 30_000);
		assertThat(first).isPositive();
		assertThat(replayed).isGreaterThan(first);
		assertThat(this.commands.release(this.key, "owner-a")).isTrue();
		assertThat(this.commands.exists(this.key)).isFalse();
	}

	@Test
	void aReplayedAcquireOfAContendedLockIsStillOurs() {
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(this.commands.acquire(this.key, "owner-b", 30_000)).isNegative();
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(redis.command("GET", this.key)).isEqualTo("owner-a+");
	}

	@Test
	void anotherOwnersAcquireIsStillRefused() {
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(this.commands.acquire(this.key, "owner-b", 30_000)).isNegative();
		assertThat(this.commands.release(this.key, "owner-b")).isFalse();
		assertThat(redis.command("GET", this.key)).isEqualTo("owner-a+");
	}

	@Test
	void aReplayedReleaseAnswersAsTheReleaseDid() {
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(this.commands.release(this.key, "owner-a")).isTrue();
		assertThat(this.commands.release(this.key, "owner-a")).isTrue();
		assertThat(this.commands.release(this.key, "owner-b")).isFalse();
		assertThat(this.commands.exists(this.key)).isFalse();
	}

	@Test
	void aReplayedReleaseAfterAnotherOwnerAcquiredAnswersReleasedAndLeavesTheNewOwner() {
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(this.commands.release(this.key, "owner-a")).isTrue();
		assertThat(this.commands.acquire(this.key, "owner-b", 30_000)).isPositive();
		assertThat(this.commands.release(this.key, "owner-a")).isTrue();
		assertThat(redis.command("GET", this.key)).isEqualTo("owner-b");
	}

	@Test
	void aReplayedHandOverThatReleasedInsteadAnswersReleased() {
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(this.commands.acquire(this.key, "outsider", 30_000)).isNegative();
		assertThat(this.commands.handOver(this.key, "owner-a", "owner-b", 30_000, false)).isEqualTo(-1);
		assertThat(this.commands.exists(this.key)).isFalse();
		assertThat(this.commands.handOver(this.key, "owner-a", "owner-b", 30_000, false)).isEqualTo(-1);
		assertThat(this.commands.exists(this.key)).isFalse();
		assertThat(this.commands.handOver(this.key, "owner-x", "owner-y", 30_000, false)).isZero();
	}

	@Test
	void aReleaseLeavesOneShortLivedReceiptOfTheLastOwnersInTheLocksSlot() {
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(this.commands.release(this.key, "owner-a")).isTrue();
		String receipt = LockKeys.receiptKey(this.key);
		// The lock key's hash tag comes first and is the only one: both keys share a
		// Cluster slot.
		assertThat(receipt).startsWith(this.key);
		assertThat(receipt.substring(this.key.length())).doesNotContain("{", "}");
		assertThat(redis.command("GET", receipt)).isEqualTo("owner-a");
		assertThat(Long.parseLong(redis.command("PTTL", receipt))).isPositive().isLessThanOrEqualTo(60_000);
		assertThat(this.commands.acquire(this.key, "owner-b", 30_000)).isPositive();
		assertThat(this.commands.release(this.key, "owner-b")).isTrue();
		// The most recent first; a withdrawal (a release of an owner that does not hold
		// the lock) is noted with a "~".
		assertThat(this.commands.release(this.key, "owner-c")).isFalse();
		assertThat(redis.command("GET", receipt)).isEqualTo("~owner-c\nowner-b\nowner-a");
	}

	@Test
	void aReplayedReleaseOfTheServiceClosesWithoutReportingALoss() {
		ReplayingTemplate template = new ReplayingTemplate(this.factory);
		LockEngine service = RedisEngines.blocking(template, RedisLockSettings.defaults());
		try (CapturedLogs logs = CapturedLogs.from(Level.INFO)) {
			LockHandle handle = service.tryLock("replayed", Duration.ZERO, null).orElseThrow();
			template.replay = (script, args) -> script == LockScripts.RELEASE;
			handle.close();
			assertThat(template.replays).hasValue(1);
			assertThat(service.locksLost()).isZero();
			assertThat(lostLockLines(logs)).isEmpty();
			assertThat(this.commands.exists(this.key)).isFalse();
			assertThat(service.trackedLockCount()).isZero();
		}
		finally {
			service.destroy();
		}
	}

	/**
	 * Nine local hand-overs in a row while an outside instance waits: the ninth may not
	 * stay local, so it frees the lock (-1). That one is replayed.
	 */
	@Test
	void aReplayedHandOverThatReleasedClosesWithoutReportingALoss() throws Exception {
		ReplayingTemplate template = new ReplayingTemplate(this.factory);
		LockEngine service = RedisEngines.blocking(template, RedisLockSettings.defaults());
		LockEngine outside = RedisEngines.blocking(new StringRedisTemplate(this.factory), RedisLockSettings.defaults());
		Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
		List<Thread> waiters = new ArrayList<>();
		try (CapturedLogs logs = CapturedLogs.from(Level.INFO)) {
			LockHandle first = service.tryLock("replayed", Duration.ZERO, null).orElseThrow();
			assertThat(outside.tryLock("replayed", Duration.ZERO, null)).isEmpty();
			assertThat(redis.command("GET", this.key)).endsWith("+");
			for (int i = 0; i < 9; i++) {
				Thread waiter = new Thread(() -> {
					try {
						service.tryLock("replayed", Duration.ofSeconds(30), null).orElseThrow().close();
					}
					catch (Throwable ex) {
						failures.add(ex);
					}
				}, "waiter-" + i);
				waiter.start();
				waiters.add(waiter);
				// Parked only once queued behind the holder: the hand-overs then go in
				// this order.
				Awaitility.await()
					.atMost(Duration.ofSeconds(10))
					.until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
			}
			template.replay = (script, args) -> script == LockScripts.HAND_OVER && "0".equals(args.get(4));
			first.close();
			for (Thread waiter : waiters) {
				waiter.join(30_000);
				assertThat(waiter.isAlive()).as(waiter.getName() + " still running").isFalse();
			}
			assertThat(failures).isEmpty();
			assertThat(template.replays).hasValue(1);
			assertThat(service.locksLost()).isZero();
			assertThat(lostLockLines(logs)).isEmpty();
			assertThat(this.commands.exists(this.key)).isFalse();
			assertThat(service.trackedLockCount()).isZero();
		}
		finally {
			service.destroy();
			outside.destroy();
		}
	}

	private static List<String> lostLockLines(CapturedLogs logs) {
		return logs.events().stream().map(CapturedLogs::fullText).filter((line) -> line.contains("Lost lock")).toList();
	}

	@Test
	void aReplayedHandOverAnswersAsTheHandOverDid() {
		long acquired = this.commands.acquire(this.key, "owner-a", 30_000);
		long handedOver = this.commands.handOver(this.key, "owner-a", "owner-b", 30_000, true);
		long replayed = this.commands.handOver(this.key, "owner-a", "owner-b", 30_000, true);
		assertThat(handedOver).isGreaterThan(acquired);
		assertThat(replayed).isGreaterThan(handedOver);
		assertThat(redis.command("GET", this.key)).isEqualTo("owner-b");
		assertThat(this.commands.handOver(this.key, "owner-a", "owner-c", 30_000, true)).isZero();
	}

	/**
	 * Runs the scripts chosen by {@link #replay} twice, as Redis does when Lettuce
	 * re-sends a command whose reply was lost with its connection: the caller gets the
	 * reply of the second run.
	 */
	private static final class ReplayingTemplate extends StringRedisTemplate {

		volatile BiPredicate<RedisScript<?>, List<String>> replay = (script, args) -> false;

		final AtomicInteger replays = new AtomicInteger();

		ReplayingTemplate(RedisConnectionFactory factory) {
			super(factory);
		}

		/** Every lock script runs through here, as a {@link LockScriptCallback}. */
		@Override
		public <T> T execute(RedisCallback<T> action, boolean exposeConnection, boolean pipeline) {
			if (action instanceof LockScriptCallback lockScript
					&& this.replay.test(lockScript.call().script(), lockScript.call().args())) {
				this.replays.incrementAndGet();
				super.execute(action, exposeConnection, pipeline);
			}
			return super.execute(action, exposeConnection, pipeline);
		}

	}

}
