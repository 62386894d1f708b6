package io.github.distlock.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What the in-memory store does beyond the {@link LockStoreContractTests contract}:
 * bounded memory, leases on its clock, synchronous announcements, clear errors for bad
 * arguments.
 */
class InMemoryLockStoreTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final InMemoryLockStore store = new InMemoryLockStore(this.clock, Duration.ofSeconds(10));

	@Test
	void locksAcquiredOnceAndReleasedAreForgottenAfterTheFencingRetention() {
		int ids = 10_000;
		for (int i = 0; i < ids; i++) {
			String key = this.store.key("order-" + i);
			assertThat(this.store.acquire(key, "owner-" + i, 1_000)).isInstanceOf(Acquired.class);
			assertThat(this.store.release(key, "owner-" + i)).isEqualTo(Released.INSTANCE);
		}
		int before = this.store.keysRemembered();
		this.clock.advance(Duration.ofSeconds(10));
		this.store.remainingLeaseMillis("any");
		int after = this.store.keysRemembered();
		System.out.println("In-memory store: " + before + " keys remembered after " + ids + " locks, " + after
				+ " after the fencing retention");
		assertThat(before).isEqualTo(ids);
		assertThat(after).isZero();
	}

	@Test
	void aHeldLockIsRememberedUntilItsLeaseRunsOutAlthoughTheRetentionPassed() {
		this.store.acquire("held", "owner", 60_000);
		this.store.acquire("expiring", "owner", 1_000);
		this.clock.advance(Duration.ofSeconds(30));
		this.store.remainingLeaseMillis("any");
		assertThat(this.store.keysRemembered()).isOne();
		assertThat(this.store.remainingLeaseMillis("held")).isEqualTo(30_000);
		this.clock.advance(Duration.ofSeconds(30));
		assertThat(this.store.remainingLeaseMillis("held")).isEqualTo(-1);
		assertThat(this.store.keysRemembered()).isZero();
	}

	@Test
	void aLeaseRunsOutExactlyWhenTheClockReachesItsEnd() {
		this.store.acquire("lock", "owner", 1_000);
		this.clock.advance(Duration.ofMillis(999));
		assertThat(this.store.remainingLeaseMillis("lock")).isEqualTo(1);
		assertThat(this.store.acquire("lock", "other", 1_000)).isEqualTo(new HeldByOther(1));
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.store.remainingLeaseMillis("lock")).isEqualTo(-1);
		assertThat(this.store.acquire("lock", "other", 1_000)).isInstanceOf(Acquired.class);
	}

	@Test
	void aLeaseSetWithinAMillisecondLastsAsLongAsAskedFromThatMoment() {
		// Found by the simulation: lease ends kept in milliseconds cut the
		// sub-millisecond
		// part of the moment a lease was set, ending it up to 1 ms early while its holder
		// counted from before it asked.
		this.clock.advance(Duration.ofNanos(900_000));
		this.store.acquire("lock", "owner", 1_000);
		this.clock.advance(Duration.ofNanos(999_500_000));
		assertThat(this.store.remainingLeaseMillis("lock")).isEqualTo(1);
		assertThat(this.store.acquire("lock", "other", 1_000)).isEqualTo(new HeldByOther(1));
		this.clock.advance(Duration.ofNanos(500_000));
		assertThat(this.store.remainingLeaseMillis("lock")).isEqualTo(-1);
	}

	@Test
	void fencingTokensAreTheClockInMicrosecondsUnlessThatWouldNotIncrease() {
		assertThat(this.store.acquire("lock", "a", 1_000)).isEqualTo(new Acquired(1767225600000000L));
		assertThat(this.store.acquire("lock", "a", 1_000)).isEqualTo(new Acquired(1767225600000001L));
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.store.handOver("lock", "a", "b", 1_000, true)).isEqualTo(new Acquired(1767225600001000L));
	}

	@Test
	void theReleaseOfAnUncontendedLockIsNotAnnounced() {
		List<String> released = new ArrayList<>();
		try (ReleaseNotifications notifications = this.store.subscribe(released::add)) {
			this.store.acquire("quiet", "a", 1_000);
			this.store.release("quiet", "a");
			this.store.acquire("wanted", "a", 1_000);
			this.store.acquire("wanted", "b", 1_000);
			this.store.release("wanted", "a");
			this.store.release("wanted", "a");
			assertThat(released).containsExactly("wanted");
		}
	}

	@Test
	void aFailingListenerDoesNotFailTheReleaseNorOtherListeners() {
		List<String> released = new ArrayList<>();
		try (ReleaseNotifications failing = this.store.subscribe((key) -> {
			throw new IllegalStateException("listener bug");
		}); ReleaseNotifications working = this.store.subscribe(released::add)) {
			this.store.acquire("lock", "a", 1_000);
			this.store.acquire("lock", "b", 1_000);
			assertThat(this.store.release("lock", "a")).isEqualTo(Released.INSTANCE);
			assertThat(released).containsExactly("lock");
		}
	}

	@Test
	void aReleaseReceiptIsForgottenWithTheKey() {
		this.store.acquire("lock", "a", 1_000);
		this.store.release("lock", "a");
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(this.store.release("lock", "a")).isEqualTo(NotOwned.INSTANCE);
	}

	@Test
	void theDefaultStoreRunsOnTheSystemClock() {
		InMemoryLockStore store = new InMemoryLockStore();
		long before = Clock.systemUTC().millis() * 1000;
		AcquireReply reply = store.acquire("lock", "a", 60_000);
		assertThat(reply).isInstanceOfSatisfying(Acquired.class,
				(acquired) -> assertThat(acquired.fencingToken()).isGreaterThanOrEqualTo(before));
		assertThat(store.remainingLeaseMillis("lock")).isBetween(1L, 60_000L);
	}

	@Test
	void badArgumentsAreNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.acquire("lock", "a", 0))
			.withMessage("leaseMillis must be at least 1, but was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.extend("lock", "a", -5))
			.withMessage("leaseMillis must be at least 1, but was -5");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.release("lock", ""))
			.withMessage("owner must not be null or empty, but was ");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.handOver("lock", "a", null, 1, true))
			.withMessage("newOwner must not be null or empty, but was null");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.acquire("", "a", 1))
			.withMessage("key must not be null or empty, but was ");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.key(""))
			.withMessage("lockId must not be null or empty, but was ");
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryLockStore(null))
			.withMessage("clock must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryLockStore(this.clock, Duration.ZERO))
			.withMessage("fencingRetention must be at least 1ms, but was 0s");
		assertThatIllegalArgumentException().isThrownBy(() -> this.store.subscribe(null))
			.withMessage("listener must not be null");
	}

}
