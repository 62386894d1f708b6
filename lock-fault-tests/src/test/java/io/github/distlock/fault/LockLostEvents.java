package io.github.distlock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.github.distlock.context.LockLostEvent;
import io.github.distlock.core.LockEngine;

/**
 * Collects the {@link LockLostEvent}s a lock service publishes, in place of an
 * application context.
 */
final class LockLostEvents {

	private final BlockingQueue<LockLostEvent> events = new LinkedBlockingQueue<>();

	static LockLostEvents of(LockEngine service) {
		LockLostEvents events = new LockLostEvents();
		service.setLockLostListener((lost) -> events.events
			.add(new LockLostEvent(service, lost.lockId(), lost.fencingToken(), lost.reason())));
		return events;
	}

	/** The next event, or {@code null} if none comes within {@code timeout}. */
	LockLostEvent next(Duration timeout) throws InterruptedException {
		return this.events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
	}

	/** Events not taken with {@link #next} yet. */
	List<LockLostEvent> pending() {
		return new ArrayList<>(this.events);
	}

}
