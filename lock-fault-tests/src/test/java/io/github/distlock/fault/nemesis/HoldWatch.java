package io.github.distlock.fault.nemesis;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;

/**
 * What the holder of one hold learned while it held, for its {@link Op} line: the longest
 * lease it had, how often it extended, and when {@code isHeld()} or {@code extend()}
 * first answered that the lock was gone. Used by the one thread that holds.
 */
final class HoldWatch {

	private long leaseMillis;

	private long sawLossNanos = Hold.NEVER;

	private int extensions;

	/**
	 * @param lease the service's lease, which the hold starts with
	 */
	HoldWatch(Duration lease) {
		this.leaseMillis = lease.toMillis();
	}

	/**
	 * Extends the hold to {@code lease} from now. An answer that the lock is no longer
	 * held ({@code false}, or {@code LockLostException}) is the holder seeing it gone; a
	 * store failure teaches it nothing (the lease counts anyway: the store may have set
	 * it).
	 */
	void extend(LockHandle handle, Duration lease) {
		this.extensions++;
		this.leaseMillis = Math.max(this.leaseMillis, lease.toMillis());
		try {
			if (!handle.extend(lease)) {
				sawLoss();
			}
		}
		catch (LockLostException ex) {
			sawLoss();
		}
		catch (RuntimeException ex) {
			// Unknown outcome: the hold goes on, as an application's would.
		}
	}

	/**
	 * Asks {@code isHeld()} while holding.
	 * @return its answer
	 */
	boolean check(LockHandle handle) {
		if (handle.isHeld()) {
			return true;
		}
		sawLoss();
		return false;
	}

	private void sawLoss() {
		if (this.sawLossNanos == Hold.NEVER) {
			this.sawLossNanos = System.nanoTime();
		}
	}

	long leaseMillis() {
		return this.leaseMillis;
	}

	long sawLossNanos() {
		return this.sawLossNanos;
	}

	int extensions() {
		return this.extensions;
	}

}
