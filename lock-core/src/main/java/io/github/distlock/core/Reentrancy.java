package io.github.distlock.core;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Reentrancy of the blocking engine: a thread that still holds a lock gets a nested hold
 * of it without a round trip. A hold that ended while its thread kept it open (its lease
 * ran out, it was lost, or its handle was never closed) is not re-entered and does not
 * stand in the thread's way: the thread's next acquisition of the id retires it, reports
 * its loss unless that was reported already, and acquires the lock afresh. Its handle's
 * {@code close()} still throws {@link io.github.distlock.LockLostException}, and never
 * touches the new hold (each hold has its own owner token).
 */
final class Reentrancy {

	private final LockLosses losses;

	private final LockReleaser releaser;

	private final Supplier<LockObserver> observer;

	Reentrancy(LockLosses losses, LockReleaser releaser, Supplier<LockObserver> observer) {
		this.losses = losses;
		this.releaser = releaser;
		this.observer = observer;
	}

	/**
	 * The calling thread's hold of {@code entry}, one level deeper, if it still holds it;
	 * a hold of it that ended is retired instead.
	 * @return the nested hold, or {@code null} if the thread is to acquire the lock
	 */
	@Nullable HeldLock reenter(LockEntry entry) {
		Thread thread = Thread.currentThread();
		HeldLock current = entry.reenter(thread);
		if (current == null) {
			HeldLock ended = entry.retireEnded(thread);
			if (ended != null) {
				retire(ended);
			}
		}
		return current;
	}

	/**
	 * Ends for good a hold its thread kept open after it ended: its loss is reported now
	 * unless renewal or {@code extend} did (counted, logged once, told to the
	 * {@link LockLostListener}), its hold observation ends as lost (a handle never closed
	 * would keep it active for good), its key is released if it is still its own
	 * (owner-checked) and it stops being the entry's holder.
	 */
	void retire(HeldLock held) {
		if (held.state() == HeldLock.State.HELD) {
			this.losses.lost(held, held.lostReason() + "; found when its thread locked it again without closing it");
		}
		this.observer.get().released(held, LockLosses.lostBeforeRelease(held, held.lostReason()));
		this.releaser.releaseQuietly(held.entry.key, held.ownerToken);
		held.entry.holderGone(held);
	}

}
