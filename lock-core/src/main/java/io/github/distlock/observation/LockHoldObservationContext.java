package io.github.distlock.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an observation of {@link LockObservationDocumentation#LOCK_HOLD holding a lock}
 * knows: the lock, its fencing token and whether it was lost before its release.
 */
public class LockHoldObservationContext extends Observation.Context {

	private final String lockId;

	private final @Nullable String lockName;

	private final long fencingToken;

	private boolean complete;

	private boolean lost;

	/**
	 * Creates a context for one hold.
	 * @param lockId the lock id
	 * @param lockName the static lock name if known, otherwise {@code null}
	 * @param fencingToken the fencing token of the hold
	 */
	public LockHoldObservationContext(String lockId, @Nullable String lockName, long fencingToken) {
		this.lockId = lockId;
		this.lockName = lockName;
		this.fencingToken = fencingToken;
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
	 * The fencing token of the hold.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Whether the hold has ended: the holder released the lock (or found it lost).
	 * @return whether the hold has ended
	 */
	public boolean isComplete() {
		return this.complete;
	}

	/**
	 * Records whether the hold has ended.
	 * @param complete whether the hold has ended
	 */
	public void setComplete(boolean complete) {
		this.complete = complete;
	}

	/**
	 * Whether the lock turned out to be lost (expired or taken) when it was released.
	 * @return whether the lock was lost
	 */
	public boolean isLost() {
		return this.lost;
	}

	/**
	 * Records whether the lock was lost before its release.
	 * @param lost whether the lock was lost
	 */
	public void setLost(boolean lost) {
		this.lost = lost;
	}

}
