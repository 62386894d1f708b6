package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;

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

	/** The prefix of the lock ids: the same for the exclusive lock and the annotation. */
	private final String prefix;

	/**
	 * @param context a started application instance (see {@link DistlockApplications}),
	 * closed with this client
	 */
	DistlockServiceClient(ConfigurableApplicationContext context, Duration waitTime) {
		this(context, context.getBean(LockService.class), waitTime, "bench:");
	}

	private DistlockServiceClient(ConfigurableApplicationContext context, LockService locks, Duration waitTime,
			String prefix) {
		this.context = context;
		this.locks = locks;
		this.waitTime = waitTime;
		this.prefix = prefix;
	}

	/**
	 * The fair view of the instance's lock service ({@link LockService#fair()}): first
	 * come, first served across instances.
	 */
	static DistlockServiceClient fair(ConfigurableApplicationContext context, Duration waitTime) {
		return new DistlockServiceClient(context, context.getBean(LockService.class).fair(), waitTime, "bench:");
	}

	/**
	 * A view of the instance's lock service: {@link LockService#read()},
	 * {@link LockService#permits(int)}; its ids have a prefix of their own (an id is held
	 * with one number of permits at a time).
	 */
	static DistlockServiceClient view(ConfigurableApplicationContext context, Duration waitTime, String prefix,
			UnaryOperator<LockService> view) {
		return new DistlockServiceClient(context, view.apply(context.getBean(LockService.class)), waitTime, prefix);
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		// The same id the annotated method locks, so both distlock rows write the same
		// keys.
		return runHolding(locks.tryLock(prefix + lockId, waitTime, null), action);
	}

	/**
	 * Runs {@code action} while holding what was acquired, then releases it.
	 * @return {@code false} if nothing was acquired (the action did not run)
	 */
	static boolean runHolding(Optional<LockHandle> acquired, Runnable action) {
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
