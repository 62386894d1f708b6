package io.github.distlock.store;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What the {@link InMemoryLockStore} knows of one key, immutable: its owner (holding
 * while the clock is before {@code leaseEndMillis}), whether an acquire was refused since
 * it was acquired, the last fencing token and the last releasing owner (the receipt a
 * replayed release is answered from), both kept until {@code fenceEndMillis}.
 */
record InMemoryLockState(@Nullable String owner, long leaseEndMillis, boolean contended, long lastToken,
		long fenceEndMillis, @Nullable String releasedBy) {

	/** The owner whose lease has not run out at {@code now}, if any. */
	static @Nullable String holder(@Nullable InMemoryLockState state, Instant now) {
		return (state != null && state.owner != null && now.toEpochMilli() < state.leaseEndMillis) ? state.owner : null;
	}

	/** The owner that released last, if still remembered at {@code now}. */
	static @Nullable String lastReleasedBy(@Nullable InMemoryLockState state, Instant now) {
		return (state != null && now.toEpochMilli() < state.fenceEndMillis) ? state.releasedBy : null;
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
		long end = now.toEpochMilli() + millis;
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
		return this.contended ? this : new InMemoryLockState(this.owner, this.leaseEndMillis, true, this.lastToken,
				this.fenceEndMillis, this.releasedBy);
	}

	InMemoryLockState releasedNowBy(String releasingOwner) {
		return new InMemoryLockState(null, 0, false, this.lastToken, this.fenceEndMillis, releasingOwner);
	}

	InMemoryLockState withLeaseEnd(long leaseEnd) {
		return new InMemoryLockState(this.owner, leaseEnd, this.contended, this.lastToken, this.fenceEndMillis,
				this.releasedBy);
	}

	/** Nobody holds it and its fencing retention has passed. */
	boolean forgettable(long nowMillis) {
		return (this.owner == null || nowMillis >= this.leaseEndMillis) && nowMillis >= this.fenceEndMillis;
	}

}
