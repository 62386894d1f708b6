package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * distlock's {@link LockService} from the auto-configuration (or its fair view), with the
 * auto-renewed default lease, on whichever store the application instance was configured
 * with.
 */
final class DistlockServiceClient implements LockClient {

	private final ConfigurableApplicationContext context;

	private final LockService locks;

	private final Duration waitTime;

	/**
	 * @param context a started application instance (see {@link DistlockApplications}),
	 * closed with this client
	 */
	DistlockServiceClient(ConfigurableApplicationContext context, Duration waitTime) {
		this(context, context.getBean(LockService.class), waitTime);
	}

	private DistlockServiceClient(ConfigurableApplicationContext context, LockService locks, Duration waitTime) {
		this.context = context;
		this.locks = locks;
		this.waitTime = waitTime;
	}

	/**
	 * The fair view of the instance's lock service ({@link LockService#fair()}): first
	 * come, first served across instances.
	 */
	static DistlockServiceClient fair(ConfigurableApplicationContext context, Duration waitTime) {
		return new DistlockServiceClient(context, context.getBean(LockService.class).fair(), waitTime);
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		// The same id the annotated method locks, so both distlock rows write the same
		// keys.
		Optional<LockHandle> acquired = locks.tryLock("bench:" + lockId, waitTime, null);
		if (acquired.isEmpty()) {
			return false;
		}
		try (LockHandle handle = acquired.get()) {
			action.run();
		}
		return true;
	}

	@Override
	public void close() {
		context.close();
	}

}
