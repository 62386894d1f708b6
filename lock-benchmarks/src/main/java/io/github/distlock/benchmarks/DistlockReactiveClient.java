package io.github.distlock.benchmarks;

import java.time.Duration;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.ReactiveLockService;
import reactor.core.publisher.Mono;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * distlock's {@link ReactiveLockService} from the auto-configuration (on one Redis the
 * {@code ReactiveLockEngine} over the Redis store, its scripts sent through Lettuce's
 * asynchronous API on the shared native connection), used as reactive code would: the
 * action runs under {@link ReactiveLockService#executeLocked(String, Duration, Mono)},
 * the lease auto-renewed, nothing blocking.
 */
final class DistlockReactiveClient implements ReactiveLockClient {

	private final ConfigurableApplicationContext context;

	private final ReactiveLockService locks;

	private final Duration waitTime;

	/**
	 * @param context a started application instance (see {@link DistlockApplications}),
	 * closed with this client
	 */
	DistlockReactiveClient(ConfigurableApplicationContext context, Duration waitTime) {
		this.context = context;
		this.locks = context.getBean(ReactiveLockService.class);
		this.waitTime = waitTime;
	}

	@Override
	public Mono<Boolean> runLocked(String lockId, Runnable action) {
		// Ids of their own: the blocking rows' locks are never in the way.
		return this.locks.executeLocked("bench-reactive:" + lockId, this.waitTime, Mono.fromCallable(() -> {
			action.run();
			return true;
		})).onErrorReturn(LockNotAcquiredException.class, false);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
