package io.github.distlock.core;

/**
 * The local deadline of a grant announced to a waiter queued in the store, without asking
 * the store: the earliest moment the grant can have been made, plus the grant's lease,
 * which is the lease the waiter asked for (its queue entry records it, and the grant sets
 * it). One per acquisition, used by its waiting thread only.
 * <p>
 * The argument. A grant is made to a queued owner, so after one of its attempts was
 * applied: say the last attempt applied before the grant is attempt {@code j}, sent at
 * {@code s(j)}; the grant, and so the start of its lease in the store, is not earlier
 * than {@code s(j)}, and {@code s(j) + lease} is a deadline never later than the end of
 * the grant's lease. Every later attempt was refused (one that found the grant live would
 * have claimed it and answered acquired), so it was applied after the grant's lease had
 * run out: possible only if its reply came more than a lease after {@code s(j)}. Hence,
 * after the refusal of attempt {@code n} (sent at {@code s(n)}, answered at
 * {@code r(n)}), the earliest possible grant moves on to {@code s(n)} when {@code r(n)}
 * is within a lease of the earliest possible grant so far (no earlier attempt can be
 * {@code j} any more), and stays where it is otherwise (a grant made then may have run
 * out; the announcement it sent then finds a deadline in the past, and the waiter claims
 * the lock with a round trip, as it does when an announcement is lost).
 * <p>
 * An attempt that went unanswered may have been applied at any moment after it was sent:
 * it moves nothing on, but the first attempt of all, answered or not, is where the
 * earliest possible grant starts (no grant precedes the first write). Starting it at the
 * first <em>refused</em> attempt instead held a grant made to an unanswered first attempt
 * long after its lease had run out (found by the simulation, seed 1736).
 */
final class GrantWindow {

	/** The lease of a grant: the one asked for; 0 when the store never grants. */
	private final long leaseNanos;

	/** Whether an attempt was sent and answered with a refusal or not at all. */
	private boolean refused;

	private long earliestGrantNanos;

	/**
	 * @param leaseNanos the lease the acquisition asks for, which a grant to it carries;
	 * 0 when the store never grants
	 */
	GrantWindow(long leaseNanos) {
		this.leaseNanos = leaseNanos;
	}

	/**
	 * An attempt sent at {@code sentAtNanos} went unanswered: it may have been applied at
	 * any moment since.
	 */
	void unanswered(long sentAtNanos) {
		if (!this.refused) {
			this.earliestGrantNanos = sentAtNanos;
		}
		this.refused = true;
	}

	/**
	 * An attempt sent at {@code sentAtNanos} was refused (the owner was queued, or kept
	 * its place) with the reply arriving at {@code answeredAtNanos}.
	 */
	void refused(long sentAtNanos, long answeredAtNanos) {
		if (!this.refused || answeredAtNanos - this.earliestGrantNanos <= this.leaseNanos) {
			this.earliestGrantNanos = sentAtNanos;
		}
		this.refused = true;
	}

	/**
	 * How long a grant announced now is still held for, counted conservatively.
	 * @return the local deadline of the grant, or {@code nowNanos} when no attempt was
	 * refused yet or the store never grants
	 */
	long deadlineNanos(long nowNanos) {
		if (!this.refused || this.leaseNanos == 0) {
			return nowNanos;
		}
		return this.earliestGrantNanos + this.leaseNanos;
	}

	/**
	 * Whether a grant announced now still runs long enough to be held without a claim: at
	 * least a quarter of its lease, room enough for its first renewal (which comes after
	 * a third of what is left). Otherwise the next attempt claims it, resetting the
	 * lease.
	 */
	boolean holdsLongEnough(long nowNanos) {
		return this.leaseNanos > 0 && deadlineNanos(nowNanos) - nowNanos >= this.leaseNanos / 4;
	}

}
