package io.github.distlock.observation;

import java.time.Duration;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.OnLockFailure;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LockService} whose acquisitions can carry what only the caller knows into
 * observations: the static lock name and how a miss is handled. The
 * {@link io.github.distlock.DistributedLock @DistributedLock} interceptor uses it, so
 * that metrics are tagged with the annotation's name and a skipped invocation counts as
 * {@code skipped}.
 */
public interface NamedLockService extends LockService {

	/**
	 * {@link #tryLock(String, Duration, Duration)} with the lock's static name.
	 * @param lockName the static lock name, a bounded value fit for a meter tag
	 * @param lockId the lock id
	 * @param waitTime how long to wait
	 * @param leaseTime a fixed lease, or {@code null} for an auto-renewed lease
	 * @param onFailure how the caller handles a lock it does not get; affects only the
	 * observation's outcome
	 * @return the handle, or empty if the lock was not acquired in time
	 */
	Optional<LockHandle> tryLock(String lockName, String lockId, Duration waitTime, @Nullable Duration leaseTime,
			OnLockFailure onFailure);

	/**
	 * {@inheritDoc}
	 * <p>
	 * The fair view is a {@code NamedLockService} too.
	 */
	@Override
	default NamedLockService fair() {
		throw new UnsupportedOperationException(getClass().getName() + " does not support fair locks");
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The READ view is a {@code NamedLockService} too.
	 */
	@Override
	default NamedLockService read() {
		throw new UnsupportedOperationException(getClass().getName() + " does not support READ locks");
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The semaphore view is a {@code NamedLockService} too.
	 */
	@Override
	default NamedLockService permits(int permits) {
		throw new UnsupportedOperationException(getClass().getName() + " does not support permits");
	}

}
