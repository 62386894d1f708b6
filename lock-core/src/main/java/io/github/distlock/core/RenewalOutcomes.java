package io.github.distlock.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the watchdog reports to the engine: failed renewals are counted, losses are
 * signalled by {@link LockLosses}.
 */
final class RenewalOutcomes implements LockRenewer.Outcomes {

	private final AtomicLong failures = new AtomicLong();

	private final LockLosses losses;

	RenewalOutcomes(LockLosses losses) {
		this.losses = losses;
	}

	@Override
	public void renewalFailed(HeldLock held, RuntimeException failure) {
		this.failures.incrementAndGet();
	}

	@Override
	public void lost(HeldLock held, String reason) {
		this.losses.lost(held, reason);
	}

	long failures() {
		return this.failures.get();
	}

}
