package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.HeldLockInfo;
import io.github.distlock.core.LockEngine;
import io.github.distlock.observation.DefaultLockAcquireObservationConvention;
import io.github.distlock.observation.DefaultLockHoldObservationConvention;
import io.github.distlock.observation.LockAcquireObservationContext;
import io.github.distlock.observation.LockHoldObservationContext;
import io.github.distlock.testsupport.RedisServerExtension;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's observation code that throws never costs a lock: the acquisition is returned
 * and released normally, the release still leaves the lock's entry and keeps the
 * interrupt flag.
 */
class ObservationFailureTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final String key = new LockKeys("distlock:").lockKey("observed");

	@Test
	void anAcquireConventionThrowingOnceAcquiredStillReturnsTheHeldLock() {
		LockEngine service = this.clients.newService();
		service.setObservationRegistry(TestObservationRegistry.create(), new ThrowingOnceAcquired(), null);
		LockHandle handle = acquire(service);
		assertThat(handle.isHeld()).isTrue();
		assertThat(redis.command("EXISTS", this.key)).isEqualTo("1");
		handle.close();
		assertReleasedAndUntracked(service);
		assertThat(service.heldLocks()).isEmpty();
		assertThat(service.locksLost()).isZero();
	}

	@Test
	void anAcquireHandlerThrowingWhenTheScopeClosesStillReturnsTheHeldLock() {
		LockEngine service = serviceObservedBy(new Throwing(LockAcquireObservationContext.class) {

			@Override
			public void onScopeClosed(Observation.Context context) {
				throw new IllegalStateException("scope handler failed");
			}

		});
		acquire(service).close();
		assertReleasedAndUntracked(service);
	}

	@Test
	void aHoldHandlerThrowingAtStartStillReturnsTheHeldLock() {
		LockEngine service = serviceObservedBy(new Throwing(LockHoldObservationContext.class) {

			@Override
			public void onStart(Observation.Context context) {
				throw new IllegalStateException("hold handler failed");
			}

		});
		acquire(service).close();
		assertReleasedAndUntracked(service);
	}

	@Test
	void aHoldConventionThrowingAtStopStillReleasesLeavesTheEntryAndKeepsTheInterrupt() {
		LockEngine service = this.clients.newService();
		service.setObservationRegistry(TestObservationRegistry.create(), null, new ThrowingOnceComplete());
		LockHandle handle = acquire(service);
		Thread.currentThread().interrupt();
		try {
			handle.close();
		}
		finally {
			assertThat(Thread.interrupted()).isTrue();
		}
		assertReleasedAndUntracked(service);
		assertThat(service.heldLocks()).isEmpty();
		assertThat(service.locksLost()).isZero();
	}

	@Test
	void aHoldHandlerThrowingAtStopStillReleasesAndLeavesTheEntry() {
		LockEngine service = serviceObservedBy(new Throwing(LockHoldObservationContext.class) {

			@Override
			public void onStop(Observation.Context context) {
				throw new IllegalStateException("hold handler failed");
			}

		});
		for (int i = 0; i < 3; i++) {
			acquire(service).close();
			assertReleasedAndUntracked(service);
		}
	}

	/** A service whose observations go to {@code handler} and the default conventions. */
	private LockEngine serviceObservedBy(Throwing handler) {
		LockEngine service = this.clients.newService();
		TestObservationRegistry registry = TestObservationRegistry.create();
		registry.observationConfig().observationHandler(handler);
		service.setObservationRegistry(registry, null, null);
		return service;
	}

	/** Takes the lock, which must be free, and checks that the service lists it held. */
	private static LockHandle acquire(LockEngine service) {
		LockHandle handle = service.tryLock("observed", Duration.ZERO, null).orElseThrow();
		assertThat(service.heldLocks()).extracting(HeldLockInfo::lockId).containsExactly("observed");
		return handle;
	}

	/** The lock's key is gone from Redis and the service tracks no lock any more. */
	private void assertReleasedAndUntracked(LockEngine service) {
		assertThat(redis.command("EXISTS", this.key)).isEqualTo("0");
		assertThat(service.trackedLockCount()).isZero();
	}

	private static final class ThrowingOnceAcquired extends DefaultLockAcquireObservationConvention {

		@Override
		public KeyValues getLowCardinalityKeyValues(LockAcquireObservationContext context) {
			if (context.isAcquired()) {
				throw new IllegalStateException("acquire convention failed");
			}
			return super.getLowCardinalityKeyValues(context);
		}

	}

	private static final class ThrowingOnceComplete extends DefaultLockHoldObservationConvention {

		@Override
		public KeyValues getLowCardinalityKeyValues(LockHoldObservationContext context) {
			if (context.isComplete()) {
				throw new IllegalStateException("hold convention failed");
			}
			return super.getLowCardinalityKeyValues(context);
		}

	}

	/** A handler of one context type; each test overrides the callback that throws. */
	private abstract static class Throwing implements ObservationHandler<Observation.Context> {

		private final Class<? extends Observation.Context> type;

		Throwing(Class<? extends Observation.Context> type) {
			this.type = type;
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return this.type.isInstance(context);
		}

	}

}
