package io.github.distlock.core;

/**
 * A lock service its owner (in a Spring application, {@code lock-spring}'s context
 * binding) is told to shut down, and that tells of the locks it finds lost: the
 * {@link LockEngine} and the {@link ReactiveLockEngine}.
 */
public interface ManagedLockService {

	/**
	 * Sets who is told of the locks found lost while their holders still work.
	 * @param listener the listener, called on a thread of the service's own
	 */
	void setLockLostListener(LockLostListener listener);

	/**
	 * Releases every lock the service holds (owner-checked), ends its waits and stops its
	 * threads. Idempotent.
	 */
	void destroy();

}
