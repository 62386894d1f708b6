package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;
import java.util.concurrent.RejectedExecutionException;

import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Tells the {@link LockLostListener} of each loss on a daemon thread of its own, one loss
 * after the other in the order they were found: a listener that blocks or throws cannot
 * delay a renewal (or the thread that found the loss). A listener's exception is logged.
 * The thread ends when idle.
 */
final class LockLostPublisher implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LockLostPublisher.class);

	private final TaskPool executor;

	private volatile @Nullable LockLostListener listener;

	LockLostPublisher(EngineRuntime runtime) {
		this.executor = runtime.newTaskPool("distlock-lock-lost-events", 1, true);
	}

	void setListener(LockLostListener listener) {
		this.listener = listener;
	}

	void publish(LostLock lost) {
		LockLostListener listener = this.listener;
		if (listener == null) {
			return;
		}
		try {
			this.executor.execute(() -> {
				try {
					listener.lockLost(lost);
				}
				catch (RuntimeException ex) {
					logger.warn("The listener told of the loss of lock '" + LogSafe.text(lost.lockId()) + "' failed",
							ex);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			logger.warn("The loss of lock '" + LogSafe.text(lost.lockId())
					+ "' was not passed to its listener: the LockService has shut down");
		}
	}

	/** Publishes the events already queued; accepts no more. */
	@Override
	public void close() {
		this.executor.shutdown();
	}

}
