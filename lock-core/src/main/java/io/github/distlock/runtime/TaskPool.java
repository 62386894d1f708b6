package io.github.distlock.runtime;

import java.util.concurrent.RejectedExecutionException;

/**
 * A pool of threads of an {@link EngineRuntime} that runs tasks now or after a delay.
 */
public interface TaskPool {

	/**
	 * For {@link EngineRuntime#newTaskPool}: a thread for every task running at once,
	 * idle ones reused, so that no task waits for another (calls that may block for a
	 * command timeout each).
	 */
	int UNBOUNDED = Integer.MAX_VALUE;

	/**
	 * Runs {@code task} as soon as a thread is free.
	 * @param task the task
	 * @throws RejectedExecutionException once the pool is shut down
	 */
	void execute(Runnable task);

	/**
	 * Runs {@code task} once {@code delayNanos} have passed.
	 * @param task the task
	 * @param delayNanos the delay, 0 or more
	 * @return the scheduled task, to cancel
	 * @throws RejectedExecutionException once the pool is shut down
	 */
	Scheduled schedule(Runnable task, long delayNanos);

	/**
	 * Tasks waiting or running, cancelled ones not counted: 0 when idle.
	 * @return the count
	 */
	int pending();

	boolean isShutdown();

	/** Takes no more tasks; those waiting still run (delayed ones when due). */
	void shutdown();

	/** Takes no more tasks, drops those waiting, and interrupts those running. */
	void shutdownNow();

	/**
	 * Waits until the tasks of a pool {@linkplain #shutdown() shut down} have run, at
	 * most {@code nanos}, through the runtime's parking.
	 * @param nanos how long at most
	 * @return whether they all ran
	 */
	boolean awaitTermination(long nanos);

	/** A task scheduled for later. */
	interface Scheduled {

		/** It does not run if it has not started yet. */
		void cancel();

	}

}
