package io.github.distlock.observation;

import io.github.distlock.OnLockFailure;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an observation of {@link LockObservationDocumentation#LOCK_ACQUIRE acquiring a
 * lock} knows: the lock, how the caller handles a lock it does not get, and whether it
 * got it.
 */
public class LockAcquireObservationContext extends Observation.Context {

	private final String lockId;

	private final @Nullable String lockName;

	private final OnLockFailure onFailure;

	private boolean complete;

	private boolean acquired;

	private long fencingToken;

	/**
	 * Creates a context for one acquisition.
	 * @param lockId the lock id
	 * @param lockName the static lock name if the caller knows it (the
	 * {@code @DistributedLock} name), otherwise {@code null}
	 * @param onFailure how the caller handles a lock it does not get
	 */
	public LockAcquireObservationContext(String lockId, @Nullable String lockName, OnLockFailure onFailure) {
		this.lockId = lockId;
		this.lockName = lockName;
		this.onFailure = onFailure;
	}

	/**
	 * The lock id: high-cardinality, never a tag.
	 * @return the lock id
	 */
	public String getLockId() {
		return this.lockId;
	}

	/**
	 * The static lock name, if the caller knows it.
	 * @return the {@code @DistributedLock} name, or {@code null} for programmatic calls
	 */
	public @Nullable String getLockName() {
		return this.lockName;
	}

	/**
	 * How the caller handles a lock it does not get: {@link OnLockFailure#SKIP} makes a
	 * miss a skip rather than a timeout.
	 * @return the failure handling
	 */
	public OnLockFailure getOnFailure() {
		return this.onFailure;
	}

	/**
	 * Whether the acquisition has finished: acquired, given up on or failed. While it has
	 * not, the caller is still waiting.
	 * @return whether the acquisition has finished
	 */
	public boolean isComplete() {
		return this.complete;
	}

	/**
	 * Records whether the acquisition has finished.
	 * @param complete whether the acquisition has finished
	 */
	public void setComplete(boolean complete) {
		this.complete = complete;
	}

	/**
	 * Whether the lock was acquired; {@code false} while waiting and when given up on.
	 * @return whether the lock was acquired
	 */
	public boolean isAcquired() {
		return this.acquired;
	}

	/**
	 * The fencing token of the acquired lock, 0 if not acquired.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Records that the lock was acquired.
	 * @param fencingToken the fencing token of the new hold
	 */
	public void setAcquired(long fencingToken) {
		this.acquired = true;
		this.fencingToken = fencingToken;
	}

}
