package io.github.distlock.benchmarks;

import java.time.Duration;

import io.github.distlock.testsupport.RedisServer;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * distlock's {@code @DistributedLock} on {@link LockedActions#run}, called through the
 * Spring proxy.
 */
final class DistlockAnnotationClient implements LockClient {

	private final ConfigurableApplicationContext context;

	private final LockedActions actions;

	DistlockAnnotationClient(RedisServer redis, Duration waitTime) {
		this.context = DistlockApplications.onRedis(redis, waitTime);
		this.actions = context.getBean(LockedActions.class);
	}

	@Override
	public boolean tryRunLocked(String lockId, Runnable action) {
		return actions.run(lockId, action);
	}

	@Override
	public void close() {
		context.close();
	}

}
