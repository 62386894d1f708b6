package io.github.distlock.core;

import java.time.Duration;
import java.time.Instant;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.store.InMemoryLockStore;
import io.github.distlock.store.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link LockEngine#renewNow()} over an {@link InMemoryLockStore} on a clock the test
 * moves: the watchdog's renewal, run when the test says, keeps a lock whose lease the
 * clock would end, and reports the loss of one whose lease the clock already ended.
 */
class RenewNowTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final InMemoryLockStore store = new InMemoryLockStore(this.clock);

	private final LockEngine engine = new LockEngine(this.store, Duration.ofSeconds(30));

	private final LockEngine shortLeaseEngine = new LockEngine(this.store, Duration.ofSeconds(6));

	@AfterEach
	void shutDown() {
		this.engine.destroy();
		this.shortLeaseEngine.destroy();
	}

	@Test
	void renewalNowKeepsAnAutoRenewedLockWhileTheClockMovesOn() {
		try (LockHandle handle = this.engine.lock("job", Duration.ZERO)) {
			for (int i = 0; i < 5; i++) {
				this.clock.advance(Duration.ofSeconds(25));
				this.engine.renewNow();
				assertThat(this.store.remainingLeaseMillis("job")).isEqualTo(30_000);
			}
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(this.engine.locksLost()).isZero();
		assertThat(this.engine.isLocked("job")).isFalse();
	}

	@Test
	void renewalNowReportsTheLossOfALeaseTheClockEnded() {
		LockHandle handle = this.engine.lock("job", Duration.ZERO);
		this.clock.advance(Duration.ofSeconds(31));
		assertThat(this.engine.isLocked("job")).isFalse();
		this.engine.renewNow();
		assertThat(handle.isHeld()).isFalse();
		assertThat(this.engine.locksLost()).isEqualTo(1);
		assertThatThrownBy(handle::close).isInstanceOf(LockLostException.class)
			.hasMessageContaining("renewal found the lock key expired or owned by another instance");
		assertThat(this.engine.trackedLockCount()).isZero();
	}

	@Test
	void fixedLeasesAreNotRenewed() {
		try (LockHandle handle = this.engine.tryLock("job", Duration.ZERO, Duration.ofSeconds(10)).orElseThrow()) {
			this.clock.advance(Duration.ofSeconds(4));
			this.engine.renewNow();
			assertThat(this.store.remainingLeaseMillis("job")).isEqualTo(6_000);
			assertThat(handle.isHeld()).isTrue();
		}
	}

	@Test
	void renewalNowReplacesTheScheduledRenewalInsteadOfAddingOne() {
		// A 6 s lease is renewed every 2 s, so its renewal is scheduled at acquisition.
		try (LockHandle handle = this.shortLeaseEngine.lock("job", Duration.ZERO)) {
			assertThat(this.shortLeaseEngine.pendingRenewalTasks()).isEqualTo(1);
			for (int i = 0; i < 3; i++) {
				this.clock.advance(Duration.ofSeconds(2));
				this.shortLeaseEngine.renewNow();
				assertThat(this.shortLeaseEngine.pendingRenewalTasks()).isEqualTo(1);
			}
			assertThat(handle.isHeld()).isTrue();
		}
		assertThat(this.shortLeaseEngine.pendingRenewalTasks()).isZero();
	}

}
