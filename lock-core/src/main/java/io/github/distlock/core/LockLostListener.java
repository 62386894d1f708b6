package io.github.distlock.core;

/**
 * Told of every lock that the engine finds lost while its holder still works (renewal or
 * extend found it gone or owned by another): the engine's plain listener, with no
 * framework behind it. The Spring integration ({@code lock-spring}) publishes each loss
 * as an {@code io.github.distlock.context.LockLostEvent}; a plain-Java user sets one with
 * {@link LockEngine#setLockLostListener(LockLostListener)}.
 * <p>
 * Called on a thread of the engine's own, one loss after the other in the order they were
 * found, never on the thread that found the loss: a listener that blocks delays later
 * calls only, not renewals. An exception it throws is logged.
 */
@FunctionalInterface
public interface LockLostListener {

	/**
	 * A lock was lost.
	 * @param lost which lock, with which fencing token, and why
	 */
	void lockLost(LostLock lost);

}
