package io.github.distlock.core;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Store commands that run off the caller's thread, on two daemon threads of their own
 * (never the watchdog's, whose renewals they would delay): clean-ups after an ambiguous
 * command, and repeats of release-path commands that an interrupt cut short. The threads
 * end when idle. Once closed, commands run on the caller's thread: a clean-up is never
 * dropped (a queue entry left behind would have the next release grant the lock to a
 * waiter that is gone).
 */
final class DetachedCommands implements AutoCloseable {

	private static final int THREADS = 2;

	private final EngineRuntime runtime;

	private final TaskPool executor;

	DetachedCommands(EngineRuntime runtime) {
		this.runtime = runtime;
		this.executor = runtime.newTaskPool("distlock-detached", THREADS, true);
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
		Outcome<T> outcome = new Outcome<>(Thread.currentThread());
		try {
			this.executor.execute(() -> outcome.run(command));
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
		return outcome.await();
	}

	/** Commands queued or running; 0 when idle. */
	int pending() {
		return this.executor.pending();
	}

	/** Lets the queued commands finish; accepts no more. */
	@Override
	public void close() {
		this.executor.shutdown();
	}

	/**
	 * Lets the queued commands finish, waiting for them until {@code deadlineNanos} (by
	 * the runtime's clock) at most; accepts no more.
	 */
	void close(long deadlineNanos) {
		this.executor.shutdown();
		this.executor.awaitTermination(Math.max(0, deadlineNanos - this.runtime.nanoTime()));
	}

	/**
	 * The outcome of a command run for a caller that waits for it, parked through the
	 * runtime, uninterruptibly (its interrupt kept).
	 */
	private final class Outcome<T> {

		private final Thread caller;

		private volatile boolean done;

		private @Nullable T value;

		private @Nullable Throwable failure;

		Outcome(Thread caller) {
			this.caller = caller;
		}

		void run(Supplier<T> command) {
			try {
				this.value = command.get();
			}
			catch (Throwable ex) {
				this.failure = ex;
			}
			finally {
				this.done = true;
				DetachedCommands.this.runtime.unpark(this.caller);
			}
		}

		T await() {
			boolean interrupted = false;
			while (!this.done) {
				DetachedCommands.this.runtime.park(this, Long.MAX_VALUE / 4);
				interrupted |= Thread.interrupted();
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
			if (this.failure instanceof RuntimeException ex) {
				throw ex;
			}
			if (this.failure instanceof Error error) {
				throw error;
			}
			if (this.failure != null) {
				throw new IllegalStateException(this.failure);
			}
			return this.value;
		}

	}

}
