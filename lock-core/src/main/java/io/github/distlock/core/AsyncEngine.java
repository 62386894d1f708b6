package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.store.AsyncLockStore;
import io.github.distlock.store.LockStore;
import io.github.distlock.store.ReleaseNotifications;
import io.github.distlock.store.ReleaseReply;
import io.github.distlock.store.Unknown;
import io.github.distlock.support.LogSafe;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The state the non-blocking acquisitions and holds of a {@link ReactiveLockEngine}
 * share: the store's {@linkplain LockStore#async asynchronous operations}, one timer
 * thread for re-checks and renewals (and the sweep renewing long leases in batches),
 * threads for the calls that block (opening the release subscription; every store call of
 * a store without a non-blocking client), the waiters and the holds, and the shutdown.
 */
final class AsyncEngine {

	private static final Log logger = LogFactory.getLog(AsyncEngine.class);

	/** How often a release whose outcome is not known is sent in all. */
	private static final int RELEASE_TRIES = 3;

	private static final long RELEASE_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private final LockStore lockStore;

	final EngineRuntime runtime;

	final TaskPool timer;

	private final TaskPool blocking;

	final AsyncLockStore store;

	final AsyncWaiters waiters = new AsyncWaiters();

	private final ReleaseNotifications notifications;

	final Set<AsyncHold> holds = ConcurrentHashMap.newKeySet();

	/** The renewals of long leases, in batches. */
	final RenewalSweep<AsyncHold> sweep;

	final Releaser releaser = this::release;

	private final AtomicLong lost = new AtomicLong();

	private final LockLostPublisher lockLostEvents;

	private volatile boolean closed;

	AsyncEngine(LockStore store, EngineRuntime runtime) {
		this.lockStore = store;
		this.runtime = runtime;
		this.timer = runtime.newTaskPool("distlock-reactive-timer", 1, false);
		this.blocking = runtime.newTaskPool("distlock-reactive-blocking", TaskPool.UNBOUNDED, true);
		this.store = store.async(this.blocking::execute);
		this.sweep = new RenewalSweep<>(this.timer, runtime, (due) -> AsyncRenewalBatch.send(this, due));
		this.notifications = store.subscribe(this.waiters);
		this.lockLostEvents = new LockLostPublisher(runtime);
		// The JVM's entropy seeder reads a file when the first strong generator starts:
		// here, not on the thread of the first acquisition (found by BlockHound).
		runtime.newOwnerToken();
	}

	String key(String lockId) {
		return this.lockStore.key(lockId);
	}

	long remainingLeaseMillis(String lockId) {
		return this.lockStore.remainingLeaseMillis(this.lockStore.key(lockId));
	}

	/**
	 * The lease a grant to an acquisition asking for {@code leaseNanos} carries: 0 if
	 * none.
	 */
	long grantLeaseNanos(long leaseNanos) {
		return (this.lockStore.grantLeaseMillis() > 0) ? leaseNanos : 0;
	}

	boolean isClosed() {
		return this.closed;
	}

	void setLockLostListener(LockLostListener listener) {
		this.lockLostEvents.setListener(listener);
	}

	long locksLost() {
		return this.lost.get();
	}

	/**
	 * Whether releases of {@code key} are announced, the subscription opened off-thread.
	 */
	CompletionStage<Boolean> ensureSubscribed(String key, long deadlineNanos) {
		return CompletableFuture
			.supplyAsync(() -> this.notifications.ensureActive(key, deadlineNanos), this.blocking::execute)
			.exceptionally((failure) -> false);
	}

	/** Counts, logs and reports a lock found lost while its holder still works. */
	void lost(AsyncHold hold, String reason) {
		this.lost.incrementAndGet();
		logger.info("Lost lock '" + LogSafe.text(hold.lockId) + "': " + reason);
		this.lockLostEvents.publish(new LostLock(hold.lockId, hold.fencingToken, reason));
	}

	/**
	 * An owner-checked release, sent again (with the same token) while its outcome is not
	 * known, {@value #RELEASE_TRIES} times in all; after that the lease covers it.
	 */
	private CompletionStage<ReleaseReply> release(String key, String owner) {
		return release(key, owner, RELEASE_TRIES);
	}

	private CompletionStage<ReleaseReply> release(String key, String owner, int tries) {
		CompletionStage<ReleaseReply> reply;
		try {
			reply = this.store.release(key, owner);
		}
		catch (RuntimeException ex) {
			reply = CompletableFuture.failedFuture(ex);
		}
		return reply.thenCompose((answer) -> {
			if (answer instanceof Unknown && tries > 1 && !this.timer.isShutdown()) {
				return after(RELEASE_RETRY_NANOS).thenCompose((ignored) -> release(key, owner, tries - 1));
			}
			return CompletableFuture.completedFuture(answer);
		});
	}

	/** {@link #releaser} for a token nobody waits for: a failure is logged. */
	void releaseQuietly(String key, String owner) {
		release(key, owner).whenComplete((reply, failure) -> {
			if (failure != null) {
				logger.warn("An owner-checked release of a lock's key failed; its lease will run out", failure);
			}
		});
	}

	private CompletionStage<Void> after(long nanos) {
		CompletableFuture<Void> due = new CompletableFuture<>();
		this.timer.schedule(() -> due.complete(null), nanos);
		return due;
	}

	/**
	 * Ends the waits (they fail with {@link LockNotAcquiredException}), releases every
	 * hold (owner-checked; their holders get {@link io.github.distlock.LockLostException}
	 * when they release) and waits for the store's answers up to {@code wait}, then stops
	 * the threads.
	 */
	void close(Duration wait) {
		this.closed = true;
		for (AsyncAcquisition waiting : this.waiters.all()) {
			waiting.end(new LockNotAcquiredException(waiting.lockId,
					"Lock '" + LogSafe.text(waiting.lockId) + "' was not acquired: the lock service shut down"));
		}
		List<CompletableFuture<ReleaseReply>> releases = List.copyOf(this.holds).stream().map((hold) -> {
			hold.lost("the lock service shut down");
			return release(hold.key, hold.owner).toCompletableFuture();
		}).toList();
		try {
			CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
				.get(wait.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			logger.warn("Not every lock held through the reactive lock service was released at shutdown; "
					+ "their leases will run out", ex);
		}
		this.notifications.close();
		this.timer.shutdownNow();
		this.blocking.shutdown();
		this.lockLostEvents.close();
	}

	/** An owner-checked release, sent again while its outcome is not known. */
	@FunctionalInterface
	interface Releaser {

		CompletionStage<ReleaseReply> release(String key, String owner);

	}

}
