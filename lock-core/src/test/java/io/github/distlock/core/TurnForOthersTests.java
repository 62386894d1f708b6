package io.github.distlock.core;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bookkeeping of the turn an instance owes waiters of other instances, without a
 * store.
 */
class TurnForOthersTests {

	private final LongAdder fallbacks = new LongAdder();

	private final TurnForOthers turn = new TurnForOthers(this.fallbacks);

	@Test
	void nothingIsOwedOrHeldBackBeforeTheLockWasFreedForOthers() {
		assertThat(this.turn.isOwed()).isFalse();
		assertThat(this.turn.holdBackNanos()).isZero();
		assertThat(this.turn.takeHeadStart()).isFalse();
		this.turn.announced();
		assertThat(this.turn.holdBackNanos()).isZero();
	}

	@Test
	void theLocalHeadHoldsBackUntilTheAnnouncementOfTheReleaseThatFreedTheLockArrives() {
		this.turn.announced();
		long before = this.turn.announcements();
		this.turn.freed(before);
		assertThat(this.turn.isOwed()).isTrue();
		assertThat(this.turn.holdBackNanos()).isPositive();
		this.turn.announced();
		assertThat(this.turn.holdBackNanos()).isZero();
		assertThat(this.turn.takeHeadStart()).isTrue();
		assertThat(this.turn.takeHeadStart()).isFalse();
		assertThat(this.turn.isOwed()).as("owed until the lock is found held elsewhere").isTrue();
		this.turn.heldElsewhere();
		assertThat(this.turn.isOwed()).isFalse();
		assertThat(this.fallbacks.sum()).isZero();
	}

	@Test
	void aLockGrantedElsewhereIsOwedWithoutHoldingTheLocalHeadBack() {
		long before = this.turn.announcements();
		this.turn.grantedElsewhere();
		assertThat(this.turn.isOwed()).isTrue();
		assertThat(this.turn.holdBackNanos()).isZero();
		assertThat(this.turn.takeHeadStart()).isFalse();
		assertThat(this.turn.announcements()).isEqualTo(before);
		this.turn.heldElsewhere();
		assertThat(this.turn.isOwed()).isFalse();
		assertThat(this.fallbacks.sum()).isZero();
	}

	@Test
	void anAnnouncementThatArrivedBeforeTheHandOversReplyCountsAsItsOwn() {
		long before = this.turn.announcements();
		// The release message overtook the reply to the hand-over.
		this.turn.announced();
		this.turn.freed(before);
		assertThat(this.turn.holdBackNanos()).isZero();
		assertThat(this.turn.takeHeadStart()).isTrue();
	}

	@Test
	void aLostAnnouncementHoldsTheLocalHeadBackOnlyUntilTheFallback() {
		this.turn.freed(this.turn.announcements());
		long holdBack = this.turn.holdBackNanos();
		assertThat(holdBack).isPositive().isLessThanOrEqualTo(Duration.ofMillis(50).toNanos());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.turn.holdBackNanos() == 0);
		assertThat(this.turn.takeHeadStart()).isTrue();
		assertThat(this.fallbacks.sum()).as("hold-backs ended by the fallback").isOne();
	}

}
