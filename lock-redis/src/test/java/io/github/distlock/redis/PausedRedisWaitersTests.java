package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import io.github.distlock.testsupport.RedisServerExtension;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiters of two instances across a Redis frozen with SIGSTOP (longer than the command
 * timeout): the first waiter of each instance sends its acquire into the frozen Redis and
 * gives up when its wait time passes; Redis applies those acquires when it resumes, after
 * the clients stopped listening. No waiter gets an exception while its wait time remains,
 * every waiter returns within its wait time plus one command timeout, a failed one
 * carries Redis's failure as its cause, the writes nobody heard of are removed again (the
 * lease is a minute, so a key left behind would block the later waiters), and no two
 * holds overlap.
 */
class PausedRedisWaitersTests {

	/** {@link RedisLockClients}' command timeout. */
	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration PAUSE = Duration.ofSeconds(3);

	/** Thread scheduling on a loaded machine, on top of wait time + command timeout. */
	private static final Duration SCHEDULING_ALLOWANCE = Duration.ofSeconds(1);

	private static final String LOCK_ID = "frozen";

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final List<LockEngine> engines = new ArrayList<>();

	@AfterEach
	void stopEngines() {
		if (redis.server().isPaused()) {
			redis.server().resume();
		}
		this.engines.forEach(LockEngine::destroy);
	}

	@Test
	void waitersReturnInTimeWithoutEarlyFailuresAndNoUnansweredWriteStaysBehind() throws Exception {
		CountingLockStore storeA = store();
		CountingLockStore storeB = store();
		LockEngine instanceA = engine(storeA);
		LockEngine instanceB = engine(storeB);
		ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();
		ExecutorService pool = Executors.newCachedThreadPool();
		List<Future<Outcome>> heads = new ArrayList<>();
		List<Future<Outcome>> followers = new ArrayList<>();
		List<Thread> followerThreads = new CopyOnWriteArrayList<>();
		try {
			redis.server().pause();
			long pausedAt = System.nanoTime();
			heads.add(pool.submit(() -> waitFor(instanceA, "A-head", Duration.ofSeconds(1), holds)));
			heads.add(pool.submit(() -> waitFor(instanceB, "B-head", Duration.ofSeconds(1), holds)));
			// Each head's acquire is on its way into the frozen Redis.
			await().atMost(Duration.ofSeconds(10)).until(() -> storeA.attempts() >= 1 && storeB.attempts() >= 1);
			long headsSentAt = System.nanoTime();
			for (Duration waitTime : List.of(Duration.ofSeconds(4), Duration.ofSeconds(6), Duration.ofSeconds(9))) {
				for (LockEngine instance : List.of(instanceA, instanceB)) {
					String name = ((instance == instanceA) ? "A" : "B") + "-" + waitTime.toSeconds() + "s";
					followers.add(pool.submit(() -> {
						followerThreads.add(Thread.currentThread());
						return waitFor(instance, name, waitTime, holds);
					}));
				}
			}
			await().atMost(Duration.ofSeconds(10))
				.until(() -> followerThreads.size() == 6 && followerThreads.stream()
					.allMatch((thread) -> EngineProbe.isQueuedWaiter(thread)
							|| thread.getState() == Thread.State.TIMED_WAITING));
			// Frozen past the heads' command timeout, so their acquires are applied only
			// after their clients gave up.
			long resumeAt = Math.max(pausedAt + PAUSE.toNanos(),
					headsSentAt + COMMAND_TIMEOUT.toNanos() + TimeUnit.MILLISECONDS.toNanos(500));
			TimeUnit.NANOSECONDS.sleep(resumeAt - System.nanoTime());
		}
		finally {
			redis.server().resume();
		}
		List<Outcome> outcomes = new ArrayList<>();
		for (Future<Outcome> future : heads) {
			outcomes.add(future.get(1, TimeUnit.MINUTES));
		}
		for (Future<Outcome> future : followers) {
			outcomes.add(future.get(1, TimeUnit.MINUTES));
		}
		pool.shutdown();
		System.out.println("[paused-redis] paused " + PAUSE.toMillis() + " ms, command timeout "
				+ COMMAND_TIMEOUT.toMillis() + " ms, unanswered acquires A=" + storeA.attempts() + " B="
				+ storeB.attempts() + " round trips: " + outcomes);
		for (Outcome outcome : outcomes) {
			assertThat(outcome.elapsed()).as("%s returned within wait time + command timeout", outcome)
				.isLessThanOrEqualTo(outcome.waitTime().plus(COMMAND_TIMEOUT).plus(SCHEDULING_ALLOWANCE));
			if (outcome.failure() != null) {
				assertThat(outcome.failure()).as(outcome.toString())
					.isInstanceOf(LockNotAcquiredException.class)
					.hasCauseInstanceOf(DataAccessException.class);
				assertThat(outcome.elapsed()).as("%s failed only once its wait time had passed", outcome)
					.isGreaterThanOrEqualTo(outcome.waitTime());
			}
		}
		// The last waiters get the lock: neither head's write, applied after the resume,
		// was left behind for its minute-long lease.
		assertThat(outcomes).filteredOn((outcome) -> outcome.waitTime().toSeconds() == 9)
			.allSatisfy((outcome) -> assertThat(outcome.acquired()).as(outcome.toString()).isTrue());
		assertThat(OverlapChecker.overlaps(holds)).isEmpty();
		await().atMost(Duration.ofSeconds(10)).until(() -> redis.keys("distlock:{" + LOCK_ID + "}").isEmpty());
		long failed = outcomes.stream().filter((outcome) -> outcome.failure() != null).count();
		System.out.println("[paused-redis] " + holds.size() + " of " + outcomes.size() + " waiters acquired, " + failed
				+ " failed at their deadline with Redis's timeout as the cause, no overlap, no key left behind");
	}

	private static Outcome waitFor(LockEngine instance, String name, Duration waitTime,
			ConcurrentLinkedQueue<Hold> holds) throws InterruptedException {
		long start = System.nanoTime();
		Optional<LockHandle> handle;
		try {
			handle = instance.tryLock(LOCK_ID, waitTime, null);
		}
		catch (RuntimeException ex) {
			return new Outcome(name, waitTime, Duration.ofNanos(System.nanoTime() - start), false, ex);
		}
		Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
		if (handle.isPresent()) {
			long acquiredAt = System.nanoTime();
			Thread.sleep(20);
			holds.add(new Hold(name, LOCK_ID, handle.get().fencingToken(), acquiredAt, System.nanoTime()));
			handle.get().close();
		}
		return new Outcome(name, waitTime, elapsed, handle.isPresent(), null);
	}

	private CountingLockStore store() {
		return new CountingLockStore(new RedisLockStore(new StringRedisTemplate(this.clients.newConnectionFactory()),
				RedisLockSettings.defaults()));
	}

	/** An instance with a minute-long lease whose connection is open before the pause. */
	private LockEngine engine(CountingLockStore store) {
		LockEngine engine = new LockEngine(store, Duration.ofMinutes(1));
		this.engines.add(engine);
		engine.isLocked(LOCK_ID);
		return engine;
	}

	private record Outcome(String name, Duration waitTime, Duration elapsed, boolean acquired,
			@Nullable RuntimeException failure) {

		@Override
		public String toString() {
			String result = this.acquired ? "acquired"
					: (this.failure != null) ? this.failure.getClass().getSimpleName() : "empty";
			return this.name + " -> " + result + " after " + this.elapsed.toMillis() + " ms";
		}

	}

}
