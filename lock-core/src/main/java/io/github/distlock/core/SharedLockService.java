package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.OnLockFailure;
import io.github.distlock.observation.NamedLockService;
import org.jspecify.annotations.Nullable;

/**
 * A shared view of a {@link LockEngine}: {@link LockEngine#read()} ({@code permits} 0) or
 * {@link LockEngine#permits(int)}. The same ids as the engine's exclusive locks; its
 * holds are acquired by {@link SharedAcquisitions}.
 */
final class SharedLockService implements NamedLockService {

	private final SharedAcquisitions acquisitions;

	private final int permits;

	SharedLockService(SharedAcquisitions acquisitions, int permits) {
		this.acquisitions = acquisitions;
		this.permits = permits;
	}

	@Override
	public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
		return this.acquisitions.tryLock(null, lockId, waitTime, leaseTime, OnLockFailure.THROW, this.permits);
	}

	@Override
	public Optional<LockHandle> tryLock(@Nullable String lockName, String lockId, Duration waitTime,
			@Nullable Duration leaseTime, OnLockFailure onFailure) {
		return this.acquisitions.tryLock(lockName, lockId, waitTime, leaseTime, onFailure, this.permits);
	}

	@Override
	public boolean isLocked(String lockId) {
		return this.acquisitions.isLocked(lockId);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Refused: shared holds never queue, so there is no order to keep among them.
	 */
	@Override
	public NamedLockService fair() {
		throw new UnsupportedOperationException("Fair " + kind() + " are not supported: shared holds never queue in"
				+ " the store (a waiting WRITE acquisition already goes before new ones); use the exclusive fair()"
				+ " view for first come, first served");
	}

	@Override
	public NamedLockService read() {
		if (this.permits == 0) {
			return this;
		}
		throw new UnsupportedOperationException("A view of " + kind() + " has no READ view: READ with permits makes"
				+ " no sense (READ holds are not counted)");
	}

	@Override
	public NamedLockService permits(int permits) {
		if (permits == this.permits) {
			return this;
		}
		throw new UnsupportedOperationException("A view of " + kind() + " has no view of " + permits + " permits:"
				+ " the number of permits is part of a lock's identity");
	}

	private String kind() {
		return (this.permits == 0) ? "READ locks" : "semaphores of " + this.permits + " permits";
	}

	@Override
	public String toString() {
		return ((this.permits == 0) ? "READ view" : this.permits + "-permit view") + " of " + this.acquisitions;
	}

}
