package io.github.distlock.redis;

import io.github.distlock.autoconfigure.LineUnderTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
import io.github.distlock.context.LockLostEvent;
import io.github.distlock.LockLostException;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.LockService;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisSentinelGroup;
import io.github.distlock.testsupport.RedisSentinelGroupExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sentinel mode on a real Sentinel group (a master, 2 replicas, 3 Sentinels), configured
 * the Spring Boot way ({@code spring.data.redis.sentinel.master} and {@code .nodes}): the
 * lock commands and the release subscription follow the new master after
 * {@code SENTINEL FAILOVER} and after a SIGKILL of the master, and every lock held across
 * the failover is either kept or reported lost to its holder ({@link LockLostEvent}) at
 * its next renewal, never silently taken by another instance while its holder believes it
 * holds it.
 * <p>
 * The group's {@code failover()} demotes the old master the way Sentinel does, ending its
 * clients' connections ({@code CLIENT KILL TYPE normal} and {@code pubsub}), so that
 * Lettuce reconnects through the Sentinels to the new master.
 */
class SentinelFailoverTests {

	@RegisterExtension
	static final RedisSentinelGroupExtension sentinel = new RedisSentinelGroupExtension();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, LineUnderTest.LOCKS))
		.withUserConfiguration(LostLocks.class)
		.withPropertyValues("spring.data.redis.sentinel.master=" + sentinel.group().masterName(),
				"spring.data.redis.sentinel.nodes=" + sentinel.group().sentinelNodes(), "spring.data.redis.timeout=2s",
				"distributed-lock.lease-time=6s");

	private final List<LockEngine> engines = new ArrayList<>();

	@AfterEach
	void stopEngines() {
		this.engines.forEach(LockEngine::destroy);
	}

	@Test
	void locksAndWaitingWorkBeforeAndAfterEachKindOfFailover() {
		this.contextRunner.run((first) -> this.contextRunner.run((second) -> {
			LockService holder = first.getBean(LockService.class);
			CountingLockStore waiterStore = new CountingLockStore(
					new RedisLockStore(new StringRedisTemplate(second.getBean(RedisConnectionFactory.class)),
							RedisLockSettings.defaults()));
			LockEngine waiter = new LockEngine(waiterStore, Duration.ofSeconds(6));
			this.engines.add(waiter);
			handOver("before", holder, waiter, waiterStore);
			RedisSentinelGroup group = sentinel.group();
			group.failover();
			handOver("after-sentinel-failover", holder, waiter, waiterStore);
			group.killMaster();
			handOver("after-kill", holder, waiter, waiterStore);
			System.out
				.println("[sentinel-wait] rounds=3 acquiredAfterAnnouncement=" + waiterStore.acquiredAfterAnnouncement()
						+ " acquiredOnReCheck=" + waiterStore.acquiredWithoutAnnouncement());
			assertThat(waiterStore.acquiredAfterAnnouncement() + waiterStore.acquiredWithoutAnnouncement())
				.isEqualTo(3);
			// The subscription followed the master: each release woke the waiter.
			assertThat(waiterStore.acquiredAfterAnnouncement()).isEqualTo(3);
		}));
	}

	@Test
	void locksHeldAcrossAFailoverAreKeptOrReportedLostNeverSilentlyBoth() {
		this.contextRunner.run((first) -> this.contextRunner.run((second) -> {
			RedisSentinelGroup group = sentinel.group();
			Outcome sentinelFailover = holdAcross("sentinel-failover", first.getBean(LockService.class),
					first.getBean(LostLocks.class), second.getBean(LockService.class), group::failover);
			Outcome kill = holdAcross("kill", first.getBean(LockService.class), first.getBean(LostLocks.class),
					second.getBean(LockService.class), group::killMaster);
			for (Outcome outcome : List.of(sentinelFailover, kill)) {
				assertThat(outcome.silentlyDoubled).isZero();
			}
		}));
	}

	/**
	 * The holder takes 40 auto-renewed locks, {@code failover} happens, and another
	 * instance tries each: whenever it can take one, the holder must be told by a
	 * {@link LockLostEvent} within its next renewals, or the lock was silently doubled.
	 * Kept: no event, and its holder still holds it.
	 */
	private Outcome holdAcross(String scenario, LockService holder, LostLocks lost, LockService other,
			Runnable failover) {
		int locks = 40;
		List<LockHandle> held = new ArrayList<>();
		for (int i = 0; i < locks; i++) {
			held.add(holder.lock(scenario + ":" + i, Duration.ofSeconds(10)));
		}
		failover.run();
		int silentlyDoubled = 0;
		for (LockHandle handle : held) {
			String id = handle.lockId();
			Optional<LockHandle> taken = tryOnceUntilAnswered(other, id);
			if (taken.isPresent()) {
				// Its holder's next renewal (every lease / 3 = 2 s) finds the lock gone.
				try {
					await().atMost(Duration.ofSeconds(15)).until(() -> lost.ids.contains(id));
				}
				catch (org.awaitility.core.ConditionTimeoutException ex) {
					silentlyDoubled++;
				}
				taken.get().close();
			}
		}
		// Reported lost: by a renewal that found the lock gone, or (conservatively) by
		// one
		// that could not reach any master before the lease ran out.
		int reportedLost = (int) held.stream().filter((handle) -> lost.ids.contains(handle.lockId())).count();
		int kept = locks - reportedLost;
		for (LockHandle handle : held) {
			assertThat(handle.isHeld()).as(handle.lockId()).isEqualTo(!lost.ids.contains(handle.lockId()));
		}
		for (LockHandle handle : held) {
			try {
				handle.close();
			}
			catch (LockLostException ex) {
				// Reported lost already: closing says so again.
			}
		}
		System.out.println("[sentinel-failover] " + scenario + ": locks=" + locks + " kept=" + kept + " reportedLost="
				+ reportedLost + " silentlyDoubled=" + silentlyDoubled);
		return new Outcome(locks, kept, reportedLost, silentlyDoubled);
	}

	private void handOver(String phase, LockService holder, LockEngine waiter, CountingLockStore waiterStore)
			throws Exception {
		String id = "sentinel-" + phase;
		CountDownLatch refused = new CountDownLatch(1);
		waiterStore.onRefused((key) -> refused.countDown());
		LockHandle held = holder.lock(id, Duration.ofSeconds(10));
		CompletableFuture<Optional<LockHandle>> acquired = CompletableFuture
			.supplyAsync(() -> waiter.tryLock(id, Duration.ofSeconds(30), null));
		assertThat(refused.await(20, TimeUnit.SECONDS)).as("the waiter tried %s once", id).isTrue();
		// Subscribed (before its next attempt) on the master.
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(() -> assertThat(sentinel.group().master().command("PUBSUB", "NUMSUB", "distlock:released"))
				.doesNotEndWith("\n0"));
		held.close();
		Optional<LockHandle> got = acquired.get(30, TimeUnit.SECONDS);
		assertThat(got).as("the waiter got %s after its release", id).isPresent();
		got.get().close();
	}

	/**
	 * Tries {@code id} once, and again until Redis answers: right after the failover a
	 * command to the old master fails like any command to a Redis that is down, and a
	 * wait time of 0 leaves no time to try again, so the application does.
	 */
	private static Optional<LockHandle> tryOnceUntilAnswered(LockService service, String id) {
		return await().atMost(Duration.ofSeconds(30))
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(100))
			.ignoreExceptionsMatching(
					(ex) -> ex instanceof LockNotAcquiredException && ex.getCause() instanceof DataAccessException)
			.until(() -> service.tryLock(id, Duration.ZERO, null), (taken) -> true);
	}

	private record Outcome(int locks, int kept, int reportedLost, int silentlyDoubled) {
	}

	@Configuration(proxyBeanMethods = false)
	static class LostLocks implements ApplicationListener<LockLostEvent> {

		final Set<String> ids = ConcurrentHashMap.newKeySet();

		final AtomicInteger events = new AtomicInteger();

		@Override
		public void onApplicationEvent(LockLostEvent event) {
			this.ids.add(event.getLockId());
			this.events.incrementAndGet();
		}

		@Bean
		String lostLocksMarker() {
			return "lost-locks";
		}

	}

}
