package io.github.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A thread whose lock was lost and not yet closed never re-enters it (docs/behaviour.md
 * rule 7): it acquires the lock afresh, so it waits while another thread of the same
 * instance took the lock meanwhile, and the lost hold's close still throws.
 */
class LostLockReentryTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void aThreadWhoseLockWasLostWaitsForTheLocalThreadThatTookItMeanwhile() throws Exception {
		LockEngine service = this.clients.newService();
		// Connected before the 300ms lease starts.
		service.isLocked("lost-reentry");
		LockHandle outer = service.tryLock("lost-reentry", Duration.ZERO, Duration.ofMillis(300)).orElseThrow();
		long outerToken = outer.fencingToken();
		await().atMost(Duration.ofSeconds(5)).until(() -> !outer.isHeld());

		// Another thread of this instance holds it now.
		AtomicReference<Throwable> otherOutcome = new AtomicReference<>();
		AtomicReference<Long> otherToken = new AtomicReference<>();
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			try (LockHandle handle = service.lock("lost-reentry", Duration.ofSeconds(5))) {
				otherToken.set(handle.fencingToken());
				holding.countDown();
				done.await(10, TimeUnit.SECONDS);
			}
			catch (Throwable ex) {
				otherOutcome.set(ex);
			}
		});
		holder.start();
		assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
		// Not re-entered: refused like any other thread (and the loss reported, once).
		assertThat(service.tryLock("lost-reentry", Duration.ZERO, null)).isEmpty();
		assertThat(service.locksLost()).isEqualTo(1);
		done.countDown();
		holder.join(10_000);
		assertThat(otherOutcome.get()).isNull();

		try (LockHandle again = service.lock("lost-reentry", Duration.ofSeconds(5))) {
			assertThat(again.fencingToken()).isGreaterThan(otherToken.get()).isGreaterThan(outerToken);
			assertThatExceptionOfType(LockLostException.class).isThrownBy(outer::close);
			assertThat(again.isHeld()).isTrue();
			assertThat(service.isLocked("lost-reentry")).isTrue();
		}
		assertThat(service.isLocked("lost-reentry")).isFalse();
		assertThat(service.locksLost()).isEqualTo(1);
		assertThat(service.trackedLockCount()).isZero();
	}

}
