package io.github.distlock.redis;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import io.github.distlock.LockHandle;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.InvalidDataAccessApiUsageException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A waiter whose own Redis attempt fails, with an exception or an {@link Error}, leaves
 * the queue at once: no releasing holder hands it the lock afterwards, and the waiters
 * behind it move up.
 */
class WaiterExitTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void aWaiterWhoseAttemptFailsIsNeverHandedTheLockByAConcurrentRelease() throws Exception {
		ScriptInterceptingTemplate template = new ScriptInterceptingTemplate(this.clients.newConnectionFactory());
		LockEngine service = RedisEngines.blocking(template, RedisLockSettings.defaults());
		LockEngine other = this.clients.newService();
		// A release lands in the failing waiter's window in about 1 of 200 iterations on
		// the unfixed code.
		int iterations = 1500;
		AtomicInteger waiterFailures = new AtomicInteger();
		try {
			for (int i = 0; i < iterations; i++) {
				String lockId = "ghost-" + i;
				AtomicBoolean holderAcquiredInRedis = new AtomicBoolean();
				AtomicBoolean waiterAttempting = new AtomicBoolean();
				AtomicBoolean holderHolds = new AtomicBoolean();
				AtomicBoolean waiterThrowing = new AtomicBoolean();
				AtomicReference<Throwable> holderOutcome = new AtomicReference<>();
				AtomicReference<Throwable> waiterOutcome = new AtomicReference<>();
				// Y: its acquire is applied in Redis, but it becomes the local holder
				// only once W attempts too.
				Thread holder = new Thread(() -> {
					try {
						LockHandle handle = service.tryLock(lockId, Duration.ZERO, null).orElseThrow();
						holderHolds.set(true);
						spinUntil(waiterThrowing::get);
						spin(ThreadLocalRandom.current().nextLong(4_000));
						handle.close();
					}
					catch (Throwable ex) {
						holderOutcome.set(ex);
					}
				}, "holder-" + i);
				template.intercept(holder, LockScripts.ACQUIRE, (proceed) -> {
					Object reply = proceed.get();
					holderAcquiredInRedis.set(true);
					spinUntil(waiterAttempting::get);
					return reply;
				});
				// W: queued behind Y's acquire; its own attempt fails, and Y releases
				// 0-4µs after the throw.
				Thread waiter = new Thread(() -> {
					try {
						service.tryLock(lockId, Duration.ofSeconds(5), null).ifPresent(LockHandle::close);
					}
					catch (Throwable ex) {
						waiterOutcome.set(ex);
					}
				}, "waiter-" + i);
				AtomicInteger waiterAttempts = new AtomicInteger();
				// Made in advance: filling in a stack trace would take longer than the
				// release.
				// Not a failure whose outcome is unknown (those are retried while the
				// wait
				// time remains): one that ends the acquisition, like an ACL's NOPERM.
				InvalidDataAccessApiUsageException failure = new InvalidDataAccessApiUsageException(
						"Injected: NOPERM this user has no permissions to run the script");
				template.intercept(waiter, LockScripts.ACQUIRE, (proceed) -> {
					if (waiterAttempts.incrementAndGet() == 1) {
						// Arriving while Y's acquire is in flight: Redis refuses, W
						// queues up.
						return proceed.get();
					}
					waiterAttempting.set(true);
					spinUntil(holderHolds::get);
					waiterThrowing.set(true);
					throw failure;
				});
				holder.start();
				spinUntil(holderAcquiredInRedis::get);
				waiter.start();
				holder.join(20_000);
				waiter.join(20_000);
				assertThat(holder.isAlive()).isFalse();
				assertThat(waiter.isAlive()).isFalse();
				assertThat(holderOutcome.get()).as("holder in iteration %d", i).isNull();
				assertThat(waiterOutcome.get()).as("waiter in iteration %d", i)
					.isInstanceOf(InvalidDataAccessApiUsageException.class);
				waiterFailures.incrementAndGet();
				// Nobody holds the lock: no hand-over went to the waiter that left.
				assertThat(other.isLocked(lockId)).as("lock key left in Redis in iteration %d", i).isFalse();
				assertThat(service.heldLocks()).as("iteration %d", i).isEmpty();
				assertThat(service.trackedLockCount()).as("iteration %d", i).isZero();
				Optional<LockHandle> taken = other.tryLock(lockId, Duration.ofSeconds(5), null);
				assertThat(taken).as("another instance acquires in iteration %d", i).isPresent();
				taken.get().close();
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> service.pendingRenewalTasks() == 0);
		}
		finally {
			service.destroy();
		}
		System.out.printf("%d iterations, %d failed waiter attempts raced with a release; no lock left behind%n",
				iterations, waiterFailures.get());
		assertThat(waiterFailures).hasValue(iterations);
	}

	@Test
	void anErrorInTheHeadWaitersAttemptDoesNotBlockTheWaitersBehindIt() throws Exception {
		ScriptInterceptingTemplate template = new ScriptInterceptingTemplate(this.clients.newConnectionFactory());
		LockEngine service = RedisEngines.blocking(template, RedisLockSettings.defaults());
		LockEngine other = this.clients.newService();
		int rounds = 10;
		try {
			for (int i = 0; i < rounds; i++) {
				String lockId = "error-" + i;
				LockHandle foreign = other.lock(lockId, Duration.ZERO);
				AtomicReference<Throwable> headOutcome = new AtomicReference<>();
				Thread head = new Thread(() -> {
					try {
						service.tryLock(lockId, Duration.ofSeconds(30), null).ifPresent(LockHandle::close);
					}
					catch (Throwable ex) {
						headOutcome.set(ex);
					}
				}, "head-" + i);
				head.start();
				awaitParked(head);
				template.intercept(head, LockScripts.ACQUIRE, (proceed) -> {
					throw new InjectedError();
				});
				AtomicInteger acquiredBehind = new AtomicInteger();
				AtomicReference<Throwable> behindOutcome = new AtomicReference<>();
				Thread[] behind = new Thread[2];
				for (int b = 0; b < behind.length; b++) {
					behind[b] = new Thread(() -> {
						try {
							Optional<LockHandle> handle = service.tryLock(lockId, Duration.ofSeconds(10), null);
							if (handle.isPresent()) {
								acquiredBehind.incrementAndGet();
								handle.get().close();
							}
						}
						catch (Throwable ex) {
							behindOutcome.set(ex);
						}
					}, "behind-" + i + "-" + b);
					behind[b].start();
					awaitParked(behind[b]);
				}
				// The head's failing attempt is its fallback re-check (within about a
				// second): a release would grant it the lock without an attempt.
				head.join(20_000);
				assertThat(head.isAlive()).isFalse();
				foreign.close();
				for (Thread thread : behind) {
					thread.join(20_000);
					assertThat(thread.isAlive()).isFalse();
				}
				assertThat(headOutcome.get()).as("round %d", i).isInstanceOf(InjectedError.class);
				assertThat(behindOutcome.get()).as("round %d", i).isNull();
				assertThat(acquiredBehind).as("waiters behind the failed one that got the lock in round %d", i)
					.hasValue(behind.length);
				assertThat(service.trackedLockCount()).isZero();
				assertThat(other.isLocked(lockId)).isFalse();
			}
		}
		finally {
			service.destroy();
		}
		System.out.printf("%d rounds: each time both waiters behind a head whose attempt threw an Error got the lock%n",
				rounds);
	}

	/** Parked in the queue of a lock: its blocker is its waiter. */
	private static void awaitParked(Thread thread) {
		await().atMost(Duration.ofSeconds(10)).until(() -> EngineProbe.isQueuedWaiter(thread));
	}

	private static void spin(long nanos) {
		long end = System.nanoTime() + nanos;
		while (System.nanoTime() - end < 0) {
			Thread.onSpinWait();
		}
	}

	/**
	 * Busy-waits, so the other thread's next step follows within microseconds; bounded.
	 */
	private static void spinUntil(BooleanSupplier condition) {
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!condition.getAsBoolean() && System.nanoTime() - end < 0) {
			Thread.onSpinWait();
		}
	}

	/**
	 * An {@link Error} from inside the lock's own Redis attempt, as an
	 * {@code OutOfMemoryError} would be.
	 */
	private static final class InjectedError extends Error {

		InjectedError() {
			super("Injected error in the acquire script call");
		}

	}

}
