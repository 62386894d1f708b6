package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.OnLockFailure;
import io.github.distlock.observation.NamedLockService;
import io.github.distlock.store.LockStore;
import org.jspecify.annotations.Nullable;

/**
 * The fair view of a {@link LockEngine} ({@link LockEngine#fair()}): the same locks,
 * acquired first come, first served across all instances.
 */
final class FairLockService implements NamedLockService {

	private final LockEngine engine;

	FairLockService(LockEngine engine) {
		this.engine = engine;
	}

	static UnsupportedOperationException unsupported(LockStore store) {
		return new UnsupportedOperationException("Fair locks are not supported by the lock store "
				+ store.getClass().getSimpleName() + ": they need distributed-lock.store=redis (without"
				+ " distributed-lock.replication.min-replicas) or distributed-lock.store=in-memory");
	}

	@Override
	public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
		return this.engine.tryLock(null, lockId, waitTime, leaseTime, OnLockFailure.THROW, true);
	}

	@Override
	public Optional<LockHandle> tryLock(@Nullable String lockName, String lockId, Duration waitTime,
			@Nullable Duration leaseTime, OnLockFailure onFailure) {
		return this.engine.tryLock(lockName, lockId, waitTime, leaseTime, onFailure, true);
	}

	@Override
	public boolean isLocked(String lockId) {
		return this.engine.isLocked(lockId);
	}

	@Override
	public NamedLockService fair() {
		return this;
	}

	@Override
	public String toString() {
		return "fair view of " + this.engine;
	}

}
