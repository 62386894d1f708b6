package io.github.distlock.core;

import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.LockLostException;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * How a lost lock is signalled, written once: counted once, logged in one INFO line (id,
 * name and reason, never the owner token), passed to the {@link LockLostListener} (a
 * {@code LockLostEvent} in a Spring application) when renewal or extend finds it, or the
 * holder's thread locks the id again without having closed it ({@link Reentrancy}), and
 * thrown as a {@link LockLostException} to the holder when it closes it.
 */
final class LockLosses {

	/** Why a release found the lock gone. */
	static final String AT_RELEASE = "the lock key had expired or was owned by another instance at release";

	private static final Log logger = LogFactory.getLog(LockLosses.class);

	private final LockLostPublisher events;

	private final AtomicLong count = new AtomicLong();

	/**
	 * @param events tells the listener off the thread that found the loss
	 */
	LockLosses(LockLostPublisher events) {
		this.events = events;
	}

	/** Locks found lost since startup. */
	long count() {
		return this.count.get();
	}

	/**
	 * Renewal or extend found the lock gone while its holder still works, or its thread
	 * locks the id again while it ended unclosed: marks it lost (once), wakes the next
	 * local waiter and publishes the event.
	 */
	void lost(HeldLock held, String reason) {
		if (held.markLost(reason)) {
			this.count.incrementAndGet();
			log(held, reason);
			held.entry.waiters.signalHead();
			// Never on the thread that found the loss (a renewal thread, or the holder's
			// in extend).
			this.events.publish(new LostLock(held.entry.lockId, held.knownFencingToken(), reason));
		}
	}

	/**
	 * A loss that only the release found (e.g. a fixed lease ran out): counted and logged
	 * once.
	 * @return the exception for the holder
	 */
	LockLostException lostAtRelease(HeldLock held, String reason) {
		this.count.incrementAndGet();
		log(held, reason);
		return lostBeforeRelease(held, reason);
	}

	/**
	 * The exception for a holder closing a lock already counted as lost.
	 */
	static LockLostException lostBeforeRelease(HeldLock held, @Nullable String reason) {
		return new LockLostException(held.entry.lockId,
				"Lock '" + LogSafe.text(held.entry.lockId) + "' was lost before it was released: " + reason);
	}

	/** The one INFO line per lost lock; never the owner token. */
	private static void log(HeldLock held, String reason) {
		String name = held.name;
		logger.info("Lost lock '" + LogSafe.text(held.entry.lockId) + "'"
				+ ((name != null) ? " (name '" + LogSafe.text(name) + "')" : "") + ": " + reason);
	}

}
