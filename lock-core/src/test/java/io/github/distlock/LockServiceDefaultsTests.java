package io.github.distlock;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The methods {@link LockService} builds on {@code tryLock}: their messages name the wait
 * time as a user writes it.
 */
class LockServiceDefaultsTests {

	private final LockService neverAcquires = new LockService() {

		@Override
		public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
			return Optional.empty();
		}

		@Override
		public boolean isLocked(String lockId) {
			return true;
		}

	};

	@Test
	void lockNamesTheWaitTimeInSpringBootsStyle() {
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> this.neverAcquires.lock("stock:apple", Duration.ofMillis(300)))
			.withMessage("Lock 'stock:apple' was not acquired within 300ms")
			.satisfies((ex) -> assertThat(ex.getLockId()).isEqualTo("stock:apple"));
	}

	@Test
	void runLockedDoesNotRunTheActionWhenNotAcquired() {
		assertThatExceptionOfType(LockNotAcquiredException.class)
			.isThrownBy(() -> this.neverAcquires.runLocked("stock:apple", Duration.ofSeconds(5), () -> {
				throw new AssertionError("ran without the lock");
			}))
			.withMessage("Lock 'stock:apple' was not acquired within 5s");
	}

}
