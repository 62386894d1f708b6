package io.github.distlock.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Redis commands that run off the caller's thread, on two daemon threads of their own
 * (never the watchdog's, whose renewals they would delay): clean-ups after an ambiguous
 * command, and repeats of release-path commands that an interrupt cut short. The threads
 * end when idle. Once closed, commands run on the caller's thread: a clean-up is never
 * dropped (a queue entry left behind would have the next release grant the lock to a
 * waiter that is gone).
 */
final class DetachedCommands implements AutoCloseable {

	private static final int THREADS = 2;

	private final ThreadPoolExecutor executor;

	DetachedCommands() {
		this.executor = new ThreadPoolExecutor(THREADS, THREADS, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				(runnable) -> {
					Thread thread = new Thread(runnable, "distlock-detached");
					thread.setDaemon(true);
					return thread;
				});
		this.executor.allowCoreThreadTimeOut(true);
	}

	/** Runs {@code task} later; once closed, now, on the caller's thread. */
	void execute(Runnable task) {
		try {
			this.executor.execute(task);
		}
		catch (RejectedExecutionException ex) {
			task.run();
		}
	}

	/**
	 * Runs {@code command} on a thread nobody interrupts and waits for it
	 * uninterruptibly. Once closed it runs on the caller's thread, with the interrupt
	 * flag cleared meanwhile.
	 */
	<T> T call(Supplier<T> command) {
		CompletableFuture<T> result;
		try {
			result = CompletableFuture.supplyAsync(command, this.executor);
		}
		catch (RejectedExecutionException ex) {
			boolean interrupted = Thread.interrupted();
			try {
				return command.get();
			}
			finally {
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}
		try {
			return result.join();
		}
		catch (CompletionException failed) {
			if (failed.getCause() instanceof RuntimeException cause) {
				throw cause;
			}
			if (failed.getCause() instanceof Error error) {
				throw error;
			}
			throw failed;
		}
	}

	/** Commands queued or running; 0 when idle. */
	int pending() {
		return this.executor.getQueue().size() + this.executor.getActiveCount();
	}

	/** Lets the queued commands finish; accepts no more. */
	@Override
	public void close() {
		this.executor.shutdown();
	}

	/**
	 * Lets the queued commands finish, waiting for them until {@code deadlineNanos} (by
	 * {@link System#nanoTime()}) at most; accepts no more.
	 */
	void close(long deadlineNanos) {
		this.executor.shutdown();
		try {
			this.executor.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
