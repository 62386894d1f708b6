package io.github.distlock.core;

/**
 * The local deadline of a grant announced to a waiter queued in the store, without asking
 * the store: the earliest moment the grant can have been made, plus the grant lease. One
 * per acquisition, used by its waiting thread only.
 * <p>
 * The argument. A grant is made to a queued owner, so after one of its attempts was
 * applied: say the last attempt applied before the grant is attempt {@code j}, sent at
 * {@code s(j)}; the grant, and so the start of its lease in the store, is not earlier
 * than {@code s(j)}, and {@code s(j) + grant lease} is a deadline never later than the
 * end of the grant lease. Every later attempt was refused (one that found the grant live
 * would have claimed it and answered acquired), so it was applied after the grant lease
 * had run out: possible only if its reply came more than a grant lease after
 * {@code s(j)}. Hence, after the refusal of attempt {@code n} (sent at {@code s(n)},
 * answered at {@code r(n)}), the earliest possible grant moves on to {@code s(n)} when
 * {@code r(n)} is within a grant lease of the earliest possible grant so far (no earlier
 * attempt can be {@code j} any more), and stays where it is otherwise (a grant made then
 * may have run out; the announcement it sent then finds a deadline in the past, and the
 * waiter claims the lock with a round trip, as it does when an announcement is lost). In
 * a normal wait attempts are at most a fallback re-check apart (1 s), less than the grant
 * lease (2 s), so the window moves on with every attempt.
 */
final class GrantWindow {

	private final long grantLeaseNanos;

	private boolean refused;

	private long earliestGrantNanos;

	/**
	 * @param grantLeaseNanos the store's grant lease; 0 when the store never grants
	 */
	GrantWindow(long grantLeaseNanos) {
		this.grantLeaseNanos = grantLeaseNanos;
	}

	/**
	 * An attempt sent at {@code sentAtNanos} was refused (the owner was queued, or kept
	 * its place) with the reply arriving at {@code answeredAtNanos}.
	 */
	void refused(long sentAtNanos, long answeredAtNanos) {
		if (!this.refused || answeredAtNanos - this.earliestGrantNanos <= this.grantLeaseNanos) {
			this.earliestGrantNanos = sentAtNanos;
		}
		this.refused = true;
	}

	/**
	 * How long a grant announced now is still held for, counted conservatively, with
	 * {@code leaseNanos} asked for (a grant counts for no longer than that either).
	 * @return the local deadline of the grant, or {@code nowNanos} when no attempt was
	 * refused yet or the store never grants
	 */
	long deadlineNanos(long leaseNanos, long nowNanos) {
		if (!this.refused || this.grantLeaseNanos == 0) {
			return nowNanos;
		}
		return this.earliestGrantNanos + Math.min(this.grantLeaseNanos, leaseNanos);
	}

	/**
	 * Whether a grant announced now still runs long enough to be held without a claim: at
	 * least a quarter of its lease (or of the lease asked for, if shorter), room enough
	 * for the lease reset that confirms it.
	 */
	boolean holdsLongEnough(long leaseNanos, long nowNanos) {
		long lease = Math.min(this.grantLeaseNanos, leaseNanos);
		return this.grantLeaseNanos > 0 && deadlineNanos(leaseNanos, nowNanos) - nowNanos >= lease / 4;
	}

}
