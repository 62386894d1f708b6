package io.github.distlock.store;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What the {@link InMemoryLockStore} knows of one key, immutable: its owner (holding
 * while the clock is before {@code leaseEndMicros}, kept in microseconds so that a lease
 * lasts as long as asked from the moment it was set, not up to a millisecond less),
 * whether an acquire was refused since it was acquired, the last fencing token (kept
 * until {@code fenceEndMillis}) and the release receipt (the owners whose part in the
 * lock ended).
 */
record InMemoryLockState(@Nullable String owner, long leaseEndMicros, boolean contended, long lastToken,
		long fenceEndMillis, InMemoryReceipt receipt) {

	/** The owner whose lease has not run out at {@code now}, if any. */
	static @Nullable String holder(@Nullable InMemoryLockState state, Instant now) {
		return (state != null && state.owner != null && micros(now) < state.leaseEndMicros) ? state.owner : null;
	}

	/**
	 * How long the holder's lease still runs at {@code now}, in ms rounded up; 0 if none.
	 */
	static long remainingMillis(@Nullable InMemoryLockState state, Instant now) {
		return (holder(state, now) != null) ? (state.leaseEndMicros - micros(now) + 999) / 1000 : 0;
	}

	/** The end of a lease of {@code leaseMillis} set at {@code now}, in microseconds. */
	static long leaseEnd(Instant now, long leaseMillis) {
		long end = micros(now) + Math.min(leaseMillis, Long.MAX_VALUE / 4000) * 1000;
		return (end < 0) ? Long.MAX_VALUE : end;
	}

	static long micros(Instant now) {
		return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
	}

	/**
	 * Whether the part of {@code owner} in the lock ended, as remembered at {@code now}.
	 */
	static boolean hasEnded(@Nullable InMemoryLockState state, String owner, Instant now) {
		return state != null && state.receipt.hasEnded(owner, now.toEpochMilli());
	}

	/** Whether {@code owner} released the lock, as remembered at {@code now}. */
	static boolean hasReleased(@Nullable InMemoryLockState state, String owner, Instant now) {
		return state != null && state.receipt.hasReleased(owner, now.toEpochMilli());
	}

	/** The receipt of {@code state}, or none. */
	static InMemoryReceipt receiptOf(@Nullable InMemoryLockState state) {
		return (state != null) ? state.receipt : InMemoryReceipt.NONE;
	}

	/**
	 * {@code state} (or a new state of a key nobody holds) with the end of {@code owner}
	 * noted in its receipt for {@code retentionMillis}.
	 */
	static InMemoryLockState ended(@Nullable InMemoryLockState state, String owner, Instant now, long retentionMillis) {
		InMemoryReceipt receipt = receiptOf(state).noted(now.toEpochMilli(), retentionMillis, owner, false);
		return (state != null) ? state.withReceipt(receipt) : new InMemoryLockState(null, 0, false, 0, 0, receipt);
	}

	/**
	 * {@code max(now in microseconds, last + 1)}, the last token counting while it is
	 * remembered.
	 */
	static long nextToken(@Nullable InMemoryLockState state, Instant now) {
		long micros = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
		long last = (state != null && now.toEpochMilli() < state.fenceEndMillis) ? state.lastToken : 0;
		return Math.max(micros, last + 1);
	}

	/**
	 * The clock time {@code millis} after {@code now}, at most {@link Long#MAX_VALUE}.
	 */
	static long plus(Instant now, long millis) {
		return plus(now.toEpochMilli(), millis);
	}

	/**
	 * {@code nowMillis + millis}, at most {@link Long#MAX_VALUE}.
	 */
	static long plus(long nowMillis, long millis) {
		long end = nowMillis + millis;
		return (end < 0) ? Long.MAX_VALUE : end;
	}

	/**
	 * {@code state}, or {@code null} (remove the key) once there is nothing left to
	 * remember.
	 */
	static @Nullable InMemoryLockState unlessForgettable(@Nullable InMemoryLockState state, Instant now) {
		return (state == null || state.forgettable(now.toEpochMilli())) ? null : state;
	}

	InMemoryLockState contendedNow() {
		return this.contended ? this : new InMemoryLockState(this.owner, this.leaseEndMicros, true, this.lastToken,
				this.fenceEndMillis, this.receipt);
	}

	/** Nobody holds it any more; the end of {@code releasingOwner} is noted. */
	InMemoryLockState releasedNowBy(String releasingOwner, Instant now, long retentionMillis) {
		return new InMemoryLockState(null, 0, false, this.lastToken, this.fenceEndMillis,
				this.receipt.noted(now.toEpochMilli(), retentionMillis, releasingOwner, true));
	}

	InMemoryLockState withLeaseEnd(long leaseEnd) {
		return new InMemoryLockState(this.owner, leaseEnd, this.contended, this.lastToken, this.fenceEndMillis,
				this.receipt);
	}

	InMemoryLockState withReceipt(InMemoryReceipt receipt) {
		return new InMemoryLockState(this.owner, this.leaseEndMicros, this.contended, this.lastToken,
				this.fenceEndMillis, receipt);
	}

	/** Nobody holds it, and its fencing retention and receipt have passed. */
	boolean forgettable(long nowMillis) {
		return (this.owner == null || nowMillis * 1000 >= this.leaseEndMicros) && nowMillis >= this.fenceEndMillis
				&& nowMillis >= this.receipt.untilMillis();
	}

}
