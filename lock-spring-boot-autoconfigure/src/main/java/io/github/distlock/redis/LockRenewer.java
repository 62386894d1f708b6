package io.github.distlock.redis;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The watchdog: renews every auto-renewed lock of this instance about every third of its lease,
 * on one shared daemon thread. Renewal is owner-checked; when it finds the key gone or taken, or
 * keeps failing until the local deadline passed, the lock is marked lost at once.
 */
final class LockRenewer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(LockRenewer.class);

	/** Retry delay after a failed renewal, capped by the renewal interval. */
	private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	private final RedisLockCommands commands;

	private final BiConsumer<HeldLock, String> onLost;

	private final ScheduledThreadPoolExecutor scheduler;

	LockRenewer(RedisLockCommands commands, BiConsumer<HeldLock, String> onLost) {
		this.commands = commands;
		this.onLost = onLost;
		this.scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "distlock-renewal");
			thread.setDaemon(true);
			return thread;
		});
		// Cancelled renewals must not pile up in the queue until their time comes.
		this.scheduler.setRemoveOnCancelPolicy(true);
	}

	void start(HeldLock held) {
		schedule(held, interval(held));
	}

	/** Runs a task on the renewal thread, e.g. cleaning up after an ambiguous acquire. */
	void execute(Runnable task) {
		if (!this.scheduler.isShutdown()) {
			this.scheduler.execute(task);
		}
	}

	private void schedule(HeldLock held, long delayNanos) {
		if (held.state() == HeldLock.State.HELD && !this.scheduler.isShutdown()) {
			held.renewal(this.scheduler.schedule(() -> renew(held), delayNanos, TimeUnit.NANOSECONDS));
		}
	}

	private void renew(HeldLock held) {
		if (held.state() != HeldLock.State.HELD) {
			return;
		}
		long sentAt = System.nanoTime();
		try {
			boolean owned = this.commands.expire(held.entry.key, held.ownerToken,
					TimeUnit.NANOSECONDS.toMillis(held.leaseNanos));
			if (owned) {
				held.leaseResetAt(sentAt, held.leaseNanos);
				schedule(held, interval(held));
			}
			else {
				this.onLost.accept(held, "renewal found the lock key expired or owned by another instance");
			}
		}
		catch (RuntimeException ex) {
			if (held.remainingNanos() <= 0) {
				this.onLost.accept(held, "renewal failed until the lease ran out: " + ex);
			}
			else {
				if (logger.isDebugEnabled()) {
					logger.debug("Renewal of lock '" + LogSafe.text(held.entry.lockId) + "' failed, retrying", ex);
				}
				schedule(held, Math.min(RETRY_NANOS, interval(held)));
			}
		}
	}

	private static long interval(HeldLock held) {
		return Math.max(held.leaseNanos / 3, 1);
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

}
