package io.github.distlock.redis;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.ReactiveLockContext;
import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.core.ReactiveLockEngine;
import io.github.distlock.testsupport.BlockingCalls;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reactive lock service on Redis never blocks a thread that must not block:
 * BlockHound watches Reactor's non-blocking threads and Lettuce's I/O threads while two
 * services run contended, cancelled and reentrant locked pipelines, and every blocking
 * call it sees there is recorded (a failure thrown inside a Lettuce callback could be
 * swallowed) and fails the test. Runs in the {@code blockhound} surefire execution of its
 * own JVM.
 */
class ReactiveLockNonBlockingTests {

	private static final Duration BOUND = Duration.ofSeconds(30);

	/**
	 * 3 s. With 1.5 s, two full builds in a row found a hold lost ("lease expired before
	 * it was renewed") within 700 ms of its acquisition: a hold taken by a grant may
	 * start with only a quarter of its lease left (the grant window's conservative
	 * deadline), a margin of 375 ms against a renewal timer slowed by BlockHound's
	 * instrumentation. This test checks that nothing blocks; whether that loss was the
	 * conservative deadline or a false loss is an open question of the reactive engine.
	 */
	private static final Duration LEASE = Duration.ofSeconds(3);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@BeforeAll
	static void installBlockHound() {
		Assumptions.assumeTrue(
				ManagementFactory.getRuntimeMXBean().getInputArguments().contains(BlockingCalls.JVM_FLAG),
				"BlockHound needs " + BlockingCalls.JVM_FLAG + ": run in lock-redis's blockhound surefire execution");
		BlockingCalls.install();
	}

	@AfterEach
	void closeClients() {
		this.clients.close();
	}

	private ReactiveLockEngine newService() {
		return RedisEngines.reactive(new StringRedisTemplate(this.clients.newConnectionFactory()),
				RedisLockSettings.defaults().withLeaseTime(LEASE));
	}

	@Test
	void contendedCancelledAndReentrantPipelinesNeverBlock() {
		Mono.fromCallable(() -> {
			Thread.sleep(1);
			return 0;
		}).subscribeOn(Schedulers.parallel()).block(BOUND);
		assertThat(BlockingCalls.recorded()).as("BlockHound is installed").anyMatch((call) -> call.contains("sleep"));
		BlockingCalls.clear();
		try (ReactiveLockEngine first = newService(); ReactiveLockEngine second = newService()) {
			AtomicInteger holders = new AtomicInteger();
			AtomicInteger overlaps = new AtomicInteger();
			AtomicInteger counted = new AtomicInteger();
			Flux<Long> all = Flux.range(0, 40).flatMap((i) -> {
				ReactiveLockEngine service = (i % 2 == 0) ? first : second;
				// Left before the lock is released: as the action ends or is cancelled,
				// not after (doFinally runs once the release is on its way, and under
				// load
				// the next holder could count itself in before it).
				AtomicBoolean inside = new AtomicBoolean();
				Runnable leave = () -> {
					if (inside.compareAndSet(true, false)) {
						holders.decrementAndGet();
					}
				};
				Mono<Long> work = Mono.defer(() -> {
					inside.set(true);
					if (holders.incrementAndGet() != 1) {
						overlaps.incrementAndGet();
					}
					// Longer than a third of the lease for some: renewed while held.
					return Mono.delay(Duration.ofMillis((i % 5 == 0) ? 1_200 : 1))
						.then(service.executeLocked("nonblocking", Duration.ZERO,
								ReactiveLockContext.current().map(ReactiveLockHandle::fencingToken)))
						.doOnNext((token) -> counted.incrementAndGet())
						.doOnTerminate(leave)
						.doOnCancel(leave);
				});
				Mono<Long> locked = service.executeLocked("nonblocking", BOUND, work);
				// Every seventh gives up while it waits or holds.
				return (i % 7 == 3) ? locked.timeout(Duration.ofMillis(20), Mono.just(-1L)) : locked;
			}, 40).subscribeOn(Schedulers.parallel());
			List<Long> results = all.collectList().block(BOUND);
			assertThat(results).hasSize(40);
			assertThat(first.locksLost() + second.locksLost()).isZero();
			assertThat(overlaps).hasValue(0);
			assertThat(counted.get()).isEqualTo(results.stream().filter((token) -> token > 0).count());
		}
		assertThat(BlockingCalls.recorded()).isEmpty();
	}

}
