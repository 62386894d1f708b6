package io.github.distlock.benchmarks;

import java.time.Duration;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockService;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * distlock's {@link LockService} from the auto-configuration, holding locks with the
 * auto-renewed lease ({@code tryLock(id, 0, null)}; {@code distributed-lock.lease-time}
 * left at its default, 30 s, renewed about every 10 s). Only the public API: a hold is
 * still held when its handle says so ({@link LockHandle#isHeld()}) and Redis does too
 * ({@link LockService#isLocked(String)}).
 */
final class DistlockHolder implements LockHolder {

	private final ConfigurableApplicationContext context;

	private final LockService locks;

	/**
	 * @param context a started application instance (see {@link DistlockApplications}),
	 * closed with this holder
	 */
	DistlockHolder(ConfigurableApplicationContext context) {
		this.context = context;
		this.locks = context.getBean(LockService.class);
	}

	@Override
	public Hold hold(String lockId) {
		String id = "held:" + lockId;
		LockHandle handle = locks.tryLock(id, Duration.ZERO, null)
			.orElseThrow(() -> new IllegalStateException("distlock did not acquire free lock '" + id + "'"));
		return new Hold() {

			@Override
			public boolean stillHeld() {
				return handle.isHeld() && locks.isLocked(id);
			}

			@Override
			public boolean release() {
				try {
					handle.close();
					return true;
				}
				catch (LockLostException ex) {
					return false;
				}
			}
		};
	}

	@Override
	public void close() {
		context.close();
	}

}
