package io.github.distlock.benchmarks;

import java.time.Duration;

import io.github.distlock.LockLostException;
import io.github.distlock.ReactiveLockHandle;
import io.github.distlock.ReactiveLockService;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * distlock's {@link ReactiveLockService} from the auto-configuration, holding locks with
 * the auto-renewed lease ({@code tryLock(id, 0, null)}, the default 30 s lease renewed
 * about every 10 s by the reactive engine's timer, without a thread per renewal). The
 * benchmark's threads wait for each acquisition and release ({@code block}); the renewals
 * between them are the cost measured. A hold is still held when its handle says so and
 * Redis does too ({@link ReactiveLockService#isLocked(String)}).
 */
final class DistlockReactiveHolder implements LockHolder {

	private static final Duration BOUND = Duration.ofSeconds(30);

	private final ConfigurableApplicationContext context;

	private final ReactiveLockService locks;

	/**
	 * @param context a started application instance (see {@link DistlockApplications}),
	 * closed with this holder
	 */
	DistlockReactiveHolder(ConfigurableApplicationContext context) {
		this.context = context;
		this.locks = context.getBean(ReactiveLockService.class);
	}

	@Override
	public Hold hold(String lockId) {
		String id = "held:" + lockId;
		ReactiveLockHandle handle = this.locks.tryLock(id, Duration.ZERO, null).block(BOUND);
		if (handle == null) {
			throw new IllegalStateException("distlock did not acquire free lock '" + id + "'");
		}
		return new Hold() {

			@Override
			public boolean stillHeld() {
				return handle.isHeld()
						&& Boolean.TRUE.equals(DistlockReactiveHolder.this.locks.isLocked(id).block(BOUND));
			}

			@Override
			public boolean release() {
				try {
					handle.release().block(BOUND);
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
		this.context.close();
	}

}
