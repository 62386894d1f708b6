package io.github.distlock.test;

import java.util.function.Consumer;

import io.github.distlock.store.InMemoryLockStore;

/**
 * A lock held by "another instance" ({@link TestLocks#holdElsewhere(String)}): the
 * application finds it held until it is released. Releasing it announces the release as
 * the store does, so a caller of the application waiting for the lock gets it at once.
 */
public final class HeldElsewhere implements AutoCloseable {

	private final InMemoryLockStore store;

	private final String lockId;

	private final String owner;

	private final long fencingToken;

	private final Consumer<HeldElsewhere> onRelease;

	HeldElsewhere(InMemoryLockStore store, String lockId, String owner, long fencingToken,
			Consumer<HeldElsewhere> onRelease) {
		this.store = store;
		this.lockId = lockId;
		this.owner = owner;
		this.fencingToken = fencingToken;
		this.onRelease = onRelease;
	}

	/**
	 * The lock id held.
	 * @return the lock id
	 */
	public String lockId() {
		return this.lockId;
	}

	/**
	 * The fencing token the other instance got: the application's next acquisition of the
	 * lock gets a greater one.
	 * @return the fencing token
	 */
	public long fencingToken() {
		return this.fencingToken;
	}

	/**
	 * Releases the lock if still held by the other instance (its lease may have run out
	 * on the test clock). Idempotent.
	 */
	public void release() {
		this.store.release(this.lockId, this.owner);
		this.onRelease.accept(this);
	}

	/** Same as {@link #release()}. */
	@Override
	public void close() {
		release();
	}

	@Override
	public String toString() {
		return "HeldElsewhere[" + this.lockId + "]";
	}

}
