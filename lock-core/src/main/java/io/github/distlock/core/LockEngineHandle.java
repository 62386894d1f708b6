package io.github.distlock.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.distlock.LockHandle;
import io.github.distlock.support.LogSafe;

/**
 * One (possibly nested) hold of a {@link HeldLock}. Closing the outermost one releases
 * the lock.
 */
final class LockEngineHandle implements LockHandle {

	private final LockEngine engine;

	private final HeldLock held;

	private final AtomicBoolean closed = new AtomicBoolean();

	LockEngineHandle(LockEngine engine, HeldLock held) {
		this.engine = engine;
		this.held = held;
	}

	@Override
	public String lockId() {
		return this.held.entry.lockId;
	}

	@Override
	public long fencingToken() {
		return this.engine.fencingToken(this.held);
	}

	@Override
	public boolean isHeld() {
		return !this.closed.get() && this.held.isHeld();
	}

	@Override
	public boolean extend(Duration leaseTime) {
		return !this.closed.get() && this.engine.extend(this.held, leaseTime);
	}

	@Override
	public void close() {
		close(Duration.ZERO);
	}

	@Override
	public void close(Duration minHoldTime) {
		if (minHoldTime == null) {
			// Checked before anything changes: the lock stays held and can still be
			// closed.
			throw new IllegalArgumentException("minHoldTime of lock '" + LogSafe.text(lockId()) + "' must not be null");
		}
		if (this.closed.compareAndSet(false, true)) {
			this.engine.release(this.held, minHoldTime);
		}
	}

	@Override
	public String toString() {
		long token = this.held.knownFencingToken();
		return "LockHandle[" + LogSafe.text(lockId()) + ", token " + ((token != 0) ? token : "not read") + ", "
				+ (isHeld() ? "held" : "not held") + "]";
	}

}
