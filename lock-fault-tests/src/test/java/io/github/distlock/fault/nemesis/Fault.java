package io.github.distlock.fault.nemesis;

/**
 * One fault the nemesis injected and healed, and what it does to the topology's promise:
 * whether two holders may overlap because of it (a documented limit, which the checker
 * then excuses in the fault's window) or not.
 *
 * @param kind what was done, e.g. {@code pause-node}
 * @param target whom it was done to, e.g. {@code node 2,4} or {@code c1}
 * @param startNanos {@link System#nanoTime()} when it began
 * @param endNanos when it was healed
 * @param excuse which overlapping holds it excuses
 */
record Fault(String kind, String target, long startNanos, long endNanos, Excuse excuse) {

	/** What a fault lets happen that the topology does not promise to prevent. */
	enum Excuse {

		/** Nothing: the topology promises exclusion through it. */
		NONE,

		/**
		 * Locks may be lost (failover, restart without data at once): two holds that both
		 * reach into the fault's window, extended by one lease, may overlap.
		 */
		LOCKS_LOST,

		/**
		 * A client was frozen past its lease: a hold of that client spanning the pause
		 * may overlap the next holder's (only the fence can stop its write).
		 */
		CLIENT_STOPPED

	}

	String describe(long originNanos) {
		return String.format("%8.3f s +%6.3f s  %-26s %-14s %s", (this.startNanos - originNanos) / 1e9,
				(this.endNanos - this.startNanos) / 1e9, this.kind, this.target,
				(this.excuse != Excuse.NONE) ? "(excuses " + this.excuse + ")" : "");
	}

}
