package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A copy of an acquire already written that reaches Redis later than the release receipt
 * lives (issue 39, 2), on {@link LateCopyScenario}'s master, replica and proxy (each test
 * its own): the acquire's connection is held back until the receipt expired, then
 * delivered.
 * <p>
 * Before the fix the copy took the free lock for the whole 30 s lease under a token
 * nobody holds (both tests failed: the lock key was there and another instance was
 * refused). Now every acquire carries the server time after which it changes nothing
 * ({@code notAfter}), which is never later than the receipt of a clean-up sent after it
 * lives, whatever the delay.
 */
class LateAcquireCopyTests {

	@Test
	void aLateCopyOfAnAbandonedAcquireTakesNoFreeLock() {
		assertThat(LateCopyScenario.run()).as("what the late copy left").isNull();
	}

	@Test
	void aLateCopyOfAnAcquireThatWasRetriedAndReleasedDoesNotRecreateTheLock() {
		try (LateCopyScenario scenario = LateCopyScenario.start()) {
			LockEngine instance = scenario.throughTheProxy();
			scenario.holdTheNextAcquire(instance);

			// The first attempt times out; the next one, on a fresh connection, acquires.
			LockHandle held = instance.lock(LateCopyScenario.LOCK_ID, Duration.ofSeconds(20));
			assertThat(scenario.holdsAnAcquire()).as("the first acquire is held back").isTrue();
			held.close();

			scenario.deliverTheHeldAcquireOnceTheReceiptExpired();

			assertThat(scenario.ghostLock()).as("what the late copy left").isNull();
		}
	}

}
