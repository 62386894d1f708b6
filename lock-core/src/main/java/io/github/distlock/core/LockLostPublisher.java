package io.github.distlock.core;

import java.util.concurrent.RejectedExecutionException;

import io.github.distlock.LockLostEvent;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes {@link LockLostEvent}s on a daemon thread of its own, one event after the
 * other in the order the losses were found: a listener that blocks or throws cannot delay
 * a renewal (or the thread that found the loss). A listener's exception is logged. The
 * thread ends when idle.
 */
final class LockLostPublisher implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LockLostPublisher.class);

	private final TaskPool executor;

	private volatile @Nullable ApplicationEventPublisher publisher;

	LockLostPublisher(EngineRuntime runtime) {
		this.executor = runtime.newTaskPool("distlock-lock-lost-events", 1, true);
	}

	void setPublisher(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	void publish(LockLostEvent event) {
		ApplicationEventPublisher publisher = this.publisher;
		if (publisher == null) {
			return;
		}
		try {
			this.executor.execute(() -> {
				try {
					publisher.publishEvent(event);
				}
				catch (RuntimeException ex) {
					logger.warn(
							"A listener of the LockLostEvent of lock '" + LogSafe.text(event.getLockId()) + "' failed",
							ex);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			logger.warn("LockLostEvent of lock '" + LogSafe.text(event.getLockId())
					+ "' not published: the LockService has shut down");
		}
	}

	/** Publishes the events already queued; accepts no more. */
	@Override
	public void close() {
		this.executor.shutdown();
	}

}
