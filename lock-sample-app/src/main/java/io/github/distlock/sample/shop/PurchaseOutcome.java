package io.github.distlock.sample.shop;

/**
 * What one buyer's request did.
 */
public enum PurchaseOutcome {

	/** Stock was decremented and the purchase recorded. */
	BOUGHT,

	/** The buyer saw no stock left. */
	SOLD_OUT,

	/**
	 * The fenced write was refused: a holder with a newer fencing token had written since
	 * this one locked.
	 */
	REJECTED_STALE

}
