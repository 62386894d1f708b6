package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import org.jspecify.annotations.Nullable;

/**
 * A JVM-local {@link LockService} that never waits: a taken lock is simply not acquired.
 * It exists only to measure what the {@code @DistributedLock} proxy costs on top of a
 * {@link LockService} call, without Redis noise.
 */
final class InMemoryLockService implements LockService {

	private final ConcurrentHashMap<String, Handle> held = new ConcurrentHashMap<>();

	@Override
	public Optional<LockHandle> tryLock(String lockId, Duration waitTime, @Nullable Duration leaseTime) {
		Handle handle = new Handle(lockId);
		return held.putIfAbsent(lockId, handle) == null ? Optional.of(handle) : Optional.empty();
	}

	@Override
	public boolean isLocked(String lockId) {
		return held.containsKey(lockId);
	}

	private final class Handle implements LockHandle {

		private final String lockId;

		private volatile boolean released;

		Handle(String lockId) {
			this.lockId = lockId;
		}

		@Override
		public String lockId() {
			return lockId;
		}

		@Override
		public long fencingToken() {
			return 1;
		}

		@Override
		public boolean isHeld() {
			return !released;
		}

		@Override
		public boolean extend(Duration leaseTime) {
			return isHeld();
		}

		@Override
		public void close(Duration minHoldTime) {
			close(); // nothing to keep: this lock exists only within one call
		}

		@Override
		public void close() {
			if (!released) {
				released = true;
				held.remove(lockId, this);
			}
		}

	}

}
