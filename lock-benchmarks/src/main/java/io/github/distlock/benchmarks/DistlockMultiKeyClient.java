package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.List;

import io.github.distlock.LockService;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * distlock's {@link LockService#tryLockAll}: two ids per lock ({@code <id>:a} and
 * {@code <id>:b}), all or none, auto-renewed leases.
 */
final class DistlockMultiKeyClient implements LockClient {

	private final ConfigurableApplicationContext context;

	private final LockService locks;

	private final Duration waitTime;

	/**
	 * @param context a started application instance (see {@link DistlockApplications}),
	 * closed with this client
	 */
	DistlockMultiKeyClient(ConfigurableApplicationContext context, Duration waitTime) {
		this.context = context;
		this.locks = context.getBean(LockService.class);
		this.waitTime = waitTime;
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		return DistlockServiceClient.runHolding(
				this.locks.tryLockAll(List.of("bench:" + lockId + ":a", "bench:" + lockId + ":b"), this.waitTime, null),
				action);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
