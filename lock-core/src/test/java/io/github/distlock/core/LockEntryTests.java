package io.github.distlock.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The bookkeeping of one lock id, without a store: the queue of local waiters, who may
 * compete in the store, hand-overs picked and failed, the local holder, and the count of
 * threads using it.
 */
class LockEntryTests {

	private static final Duration BOUND = Duration.ofSeconds(10);

	private final LockEntry entry = new LockEntry("distlock:{id}", "id");

	@Test
	void waitersQueueInArrivalOrderAndOnlyTheFirstIsHead() {
		Waiter first = waiter();
		Waiter second = waiter();
		assertThat(this.entry.waiters.hasWaiters()).isFalse();
		this.entry.waiters.enqueue(first);
		this.entry.waiters.enqueue(second);
		assertThat(this.entry.waiters.hasWaiters()).isTrue();
		assertThat(this.entry.waiters.isHead(first)).isTrue();
		assertThat(this.entry.waiters.isHead(second)).isFalse();
		this.entry.waiters.dequeue(first);
		assertThat(this.entry.waiters.isHead(second)).isTrue();
	}

	@Test
	void aCancelledHeadLeavesTheQueueAndTheNextOneIsSignalled() {
		Waiter first = waiter();
		Waiter second = waiter();
		this.entry.waiters.enqueue(first);
		this.entry.waiters.enqueue(second);
		assertThat(this.entry.waiters.cancel(first)).isTrue();
		assertThat(first.state()).isEqualTo(Waiter.State.CANCELLED);
		assertThat(this.entry.waiters.isHead(second)).isTrue();
		// The new head was signalled (it may have to compete in the store now): its park
		// returns at once.
		assertReturnsAtOnce(second);
	}

	@Test
	void aWaiterCannotCancelWhileAHandOverToItIsInFlight() {
		Waiter waiter = waiter();
		this.entry.waiters.enqueue(waiter);
		assertThat(this.entry.waiters.pickForHandOver()).isSameAs(waiter);
		assertThat(waiter.state()).isEqualTo(Waiter.State.GRANTING);
		assertThat(this.entry.waiters.cancel(waiter)).isFalse();
		assertThat(waiter.state()).isEqualTo(Waiter.State.GRANTING);
	}

	@Test
	void aHandOverPicksTheHeadAndRemovesItFromTheQueue() {
		Waiter first = waiter();
		Waiter second = waiter();
		this.entry.waiters.enqueue(first);
		this.entry.waiters.enqueue(second);
		assertThat(this.entry.waiters.pickForHandOver()).isSameAs(first);
		assertThat(this.entry.waiters.isHead(second)).isTrue();
		assertThat(this.entry.waiters.pickForHandOver()).isSameAs(second);
		assertThat(this.entry.waiters.hasWaiters()).isFalse();
		assertThat(this.entry.waiters.pickForHandOver()).isNull();
	}

	@Test
	void aHeadAttemptingInTheStoreIsNotPickedForAHandOver() {
		Waiter head = waiter();
		Waiter next = waiter();
		this.entry.waiters.enqueue(head);
		this.entry.waiters.enqueue(next);
		head.transition(Waiter.State.WAITING, Waiter.State.ATTEMPTING);
		assertThat(this.entry.waiters.pickForHandOver()).isNull();
		assertThat(this.entry.waiters.isHead(head)).isTrue();
		assertThat(next.state()).isEqualTo(Waiter.State.WAITING);
	}

	@Test
	void aFailedHandOverPutsTheWaiterBackAtTheFrontAndSignalsIt() {
		Waiter first = waiter();
		Waiter second = waiter();
		this.entry.waiters.enqueue(first);
		this.entry.waiters.enqueue(second);
		Waiter picked = this.entry.waiters.pickForHandOver();
		this.entry.waiters.handOverFailed(picked);
		assertThat(picked.state()).isEqualTo(Waiter.State.WAITING);
		assertThat(this.entry.waiters.isHead(first)).isTrue();
		assertReturnsAtOnce(first);
		// Waiting again: it may cancel now.
		assertThat(this.entry.waiters.cancel(first)).isTrue();
		assertThat(this.entry.waiters.isHead(second)).isTrue();
	}

	@Test
	void aNewcomerGoesToTheStoreOnlyWithoutALiveHolderAndWithoutWaiters() {
		assertThat(this.entry.isFree()).isTrue();
		HeldLock held = held(TimeUnit.SECONDS.toNanos(30));
		this.entry.acquiredFromStore(held);
		assertThat(this.entry.holder()).isSameAs(held);
		assertThat(this.entry.hasLiveHolder()).isTrue();
		assertThat(this.entry.isFree()).isFalse();
		this.entry.holderGone(held);
		assertThat(this.entry.holder()).isNull();
		assertThat(this.entry.isFree()).isTrue();
		Waiter waiter = waiter();
		this.entry.waiters.enqueue(waiter);
		assertThat(this.entry.isFree()).isFalse();
	}

	@Test
	void aReleasedOrExpiredHolderIsNoLiveHolder() {
		HeldLock released = held(TimeUnit.SECONDS.toNanos(30));
		this.entry.acquiredFromStore(released);
		released.markReleased();
		assertThat(this.entry.hasLiveHolder()).isFalse();
		HeldLock expired = held(0);
		this.entry.acquiredFromStore(expired);
		assertThat(this.entry.hasLiveHolder()).isFalse();
		assertThat(this.entry.isFree()).isTrue();
	}

	@Test
	void anEarlierHolderGoneDoesNotForgetItsSuccessor() {
		HeldLock first = held(TimeUnit.SECONDS.toNanos(30));
		HeldLock successor = held(TimeUnit.SECONDS.toNanos(30));
		this.entry.acquiredFromStore(first);
		this.entry.handedOver(successor);
		this.entry.holderGone(first);
		assertThat(this.entry.holder()).isSameAs(successor);
	}

	@Test
	void handOversInARowAreCountedUntilTheNextAcquisitionFromTheStore() {
		this.entry.acquiredFromStore(held(TimeUnit.SECONDS.toNanos(30)));
		assertThat(this.entry.handOversSinceStoreAcquire()).isZero();
		for (int i = 1; i <= 3; i++) {
			this.entry.handedOver(held(TimeUnit.SECONDS.toNanos(30)));
			assertThat(this.entry.handOversSinceStoreAcquire()).isEqualTo(i);
		}
		this.entry.acquiredFromStore(held(TimeUnit.SECONDS.toNanos(30)));
		assertThat(this.entry.handOversSinceStoreAcquire()).isZero();
	}

	@Test
	void theEntryIsUnusedWhenEveryThreadThatEnteredLeft() {
		this.entry.enter();
		this.entry.enter();
		assertThat(this.entry.leave()).isFalse();
		this.entry.enter();
		assertThat(this.entry.leave()).isFalse();
		assertThat(this.entry.leave()).isTrue();
	}

	@Test
	void signalAllWakesEveryWaiter() {
		Waiter first = waiter();
		Waiter second = waiter();
		this.entry.waiters.enqueue(first);
		this.entry.waiters.enqueue(second);
		this.entry.signalAll();
		assertReturnsAtOnce(first);
		assertReturnsAtOnce(second);
	}

	private static Waiter waiter() {
		return new Waiter(Thread.currentThread(), 0);
	}

	private HeldLock held(long leaseNanos) {
		return new HeldLock(this.entry, "owner", 1, Thread.currentThread(), leaseNanos, false, System.nanoTime());
	}

	/** A park of a minute returns at once only if the waiter was signalled before. */
	private static void assertReturnsAtOnce(Waiter waiter) {
		assertTimeoutPreemptively(BOUND, () -> waiter.park(TimeUnit.SECONDS.toNanos(60)));
	}

}
