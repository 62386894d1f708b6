package io.github.distlock.core;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.store.InMemoryLockStore;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Reentrancy ends with the hold (issue 39): a hold that ended while its thread kept it
 * open, lost or run out, exclusive or READ, is retired by the thread's next acquisition
 * of the id, which acquires afresh; the loss is reported once, and the old handle's close
 * throws without touching the new hold. See also the contract's
 * {@code aHandleLeftOpenAfterItsFixedLeaseRanOutNeitherBlocksItsThreadNorGoesUnreported}.
 */
class ReentrancyTests {

	private static final Duration BOUND = Duration.ofSeconds(20);

	private static final Duration SHORT_LEASE = Duration.ofMillis(600);

	private final InMemoryLockStore store = new InMemoryLockStore();

	private final LockEngine engine = new LockEngine(this.store, Duration.ofSeconds(30));

	private final BlockingQueue<LostLock> lost = new LinkedBlockingQueue<>();

	ReentrancyTests() {
		this.engine.setLockLostListener(this.lost::add);
	}

	@AfterEach
	void close() {
		this.engine.close();
	}

	@Test
	void aLockLostToRenewalAndLeftOpenIsNotReenteredNorReportedTwice() throws Exception {
		LockHandle left = this.engine.lock("taken", Duration.ZERO);
		String key = this.store.key("taken");
		this.store.release(key, this.store.holderOf(key).orElseThrow());
		this.store.acquire(key, "intruder", Duration.ofMinutes(1).toMillis());
		this.engine.renewNow();
		assertThat(this.lost.poll(BOUND.toSeconds(), TimeUnit.SECONDS)).isNotNull();
		assertThat(this.engine.locksLost()).isEqualTo(1);

		// Not re-entered, and no LockLostException: the intruder holds it, so the thread
		// waits.
		assertThat(this.engine.tryLock("taken", Duration.ZERO, null)).isEmpty();
		this.store.release(key, "intruder");
		try (LockHandle again = this.engine.lock("taken", BOUND)) {
			assertThat(again.fencingToken()).isGreaterThan(left.fencingToken());
			assertThatExceptionOfType(LockLostException.class).isThrownBy(left::close);
			assertThat(again.isHeld()).isTrue();
			assertThat(this.store.holderOf(key)).isPresent().get().isNotEqualTo("intruder");
		}
		assertThat(this.engine.locksLost()).isEqualTo(1);
		assertThat(this.lost).isEmpty();
		assertThat(this.store.holderOf(key)).isEmpty();
		assertThat(this.engine.trackedLockCount()).isZero();
	}

	@Test
	void theHoldObservationOfAHoldLeftOpenEndsAsLostWhenItsThreadLocksAgain() {
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.engine.setObservationRegistry(registry, null, null);
		LockHandle left = this.engine.tryLock("stock:apple", Duration.ZERO, SHORT_LEASE).orElseThrow();
		await().atMost(BOUND).until(() -> !left.isHeld());

		try (LockHandle again = this.engine.lock("stock:apple", BOUND)) {
			// Not active for good: the forgotten hold was observed as lost when it was
			// retired.
			TestObservationRegistryAssert.assertThat(registry)
				.hasNumberOfObservationsWithNameEqualTo("distlock.hold", 2)
				.hasAnObservation((hold) -> hold.hasLowCardinalityKeyValue("outcome", "lost"))
				.hasAnObservation((hold) -> hold.hasLowCardinalityKeyValue("outcome", "held"));
			assertThatExceptionOfType(LockLostException.class).isThrownBy(left::close);
		}
		TestObservationRegistryAssert.assertThat(registry)
			.hasNumberOfObservationsWithNameEqualTo("distlock.hold", 2)
			.hasAnObservation((hold) -> hold.hasLowCardinalityKeyValue("outcome", "lost"))
			.hasAnObservation((hold) -> hold.hasLowCardinalityKeyValue("outcome", "released"));
	}

	@Test
	void aReadHoldLeftOpenAfterItsLeaseRanOutIsTakenAfreshAndNoLongerRefusesTheExclusiveLock() throws Exception {
		LockHandle left = this.engine.read().tryLock("catalog", Duration.ZERO, SHORT_LEASE).orElseThrow();
		await().atMost(BOUND).until(() -> !left.isHeld());

		try (LockHandle again = this.engine.read().lock("catalog", BOUND)) {
			assertThat(again.fencingToken()).isGreaterThan(left.fencingToken());
			assertThat(this.lost.poll(BOUND.toSeconds(), TimeUnit.SECONDS)).isNotNull()
				.extracting(LostLock::fencingToken)
				.isEqualTo(left.fencingToken());
		}
		// Only a READ hold held now refuses the exclusive lock (an upgrade).
		try (LockHandle write = this.engine.lock("catalog", BOUND)) {
			assertThat(write.isHeld()).isTrue();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(left::close);
			assertThat(write.isHeld()).isTrue();
		}
		assertThat(this.engine.locksLost()).isEqualTo(1);
		assertThat(this.engine.isLocked("catalog")).isFalse();
		assertThat(this.engine.trackedLockCount()).isZero();
	}

	@Test
	void anExclusiveHoldLeftOpenAfterItsLeaseRanOutDoesNotNestAReadHold() throws Exception {
		LockHandle left = this.engine.tryLock("catalog", Duration.ZERO, SHORT_LEASE).orElseThrow();
		await().atMost(BOUND).until(() -> !left.isHeld());

		try (LockHandle read = this.engine.read().lock("catalog", BOUND)) {
			assertThat(read.fencingToken()).isGreaterThan(left.fencingToken());
			assertThat(this.lost.poll(BOUND.toSeconds(), TimeUnit.SECONDS)).isNotNull();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(left::close);
			assertThat(read.isHeld()).isTrue();
			assertThat(this.store.sharedHoldersOf(this.store.key("catalog"))).hasSize(1);
		}
		assertThat(this.engine.locksLost()).isEqualTo(1);
		assertThat(this.engine.trackedLockCount()).isZero();
	}

}
