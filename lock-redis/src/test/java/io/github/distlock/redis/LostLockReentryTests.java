package io.github.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A thread whose lock was lost and not yet closed cannot re-enter it (docs/behaviour.md
 * rule 7), also when another thread of the same instance took the lock meanwhile.
 */
class LostLockReentryTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void reenteringALockThatAnotherLocalThreadTookAfterTheLossThrows() throws Exception {
		RedisLockService service = this.clients.newService();
		// Connected before the 300ms lease starts.
		service.isLocked("lost-reentry");
		LockHandle outer = service.tryLock("lost-reentry", Duration.ZERO, Duration.ofMillis(300)).orElseThrow();
		await().atMost(Duration.ofSeconds(5)).until(() -> !outer.isHeld());

		// Another thread of this instance takes the lock and releases it again.
		AtomicReference<Throwable> otherOutcome = new AtomicReference<>();
		Thread taker = new Thread(() -> {
			try (LockHandle handle = service.lock("lost-reentry", Duration.ofSeconds(5))) {
				assertThat(handle.isHeld()).isTrue();
			}
			catch (Throwable ex) {
				otherOutcome.set(ex);
			}
		});
		taker.start();
		taker.join(10_000);
		assertThat(otherOutcome.get()).isNull();
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> service.tryLock("lost-reentry", Duration.ofSeconds(3), null))
			.withMessageContaining("'lost-reentry' was lost while this thread held it");
		assertThat(service.isLocked("lost-reentry")).isFalse();

		// Another thread of this instance holds it now.
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Thread holder = new Thread(() -> {
			try (LockHandle handle = service.lock("lost-reentry", Duration.ofSeconds(5))) {
				holding.countDown();
				done.await(10, TimeUnit.SECONDS);
			}
			catch (Throwable ex) {
				otherOutcome.set(ex);
			}
		});
		holder.start();
		assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> service.tryLock("lost-reentry", Duration.ofSeconds(3), null));
		done.countDown();
		holder.join(10_000);
		assertThat(otherOutcome.get()).isNull();

		assertThatExceptionOfType(LockLostException.class).isThrownBy(outer::close);
		assertThat(service.trackedLockCount()).isZero();
		// Closed, the lost hold no longer stands in the way.
		try (LockHandle again = service.lock("lost-reentry", Duration.ofSeconds(5))) {
			assertThat(again.isHeld()).isTrue();
			assertThat(again.fencingToken()).isGreaterThan(outer.fencingToken());
		}
		assertThat(service.trackedLockCount()).isZero();
	}

}
