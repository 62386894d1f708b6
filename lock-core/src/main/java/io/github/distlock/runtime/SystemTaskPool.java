package io.github.distlock.runtime;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * A {@link TaskPool} of daemon threads of the JVM ({@link SystemRuntime}): a scheduled
 * thread pool of a fixed size, or, {@link TaskPool#UNBOUNDED}, a cached pool (a thread
 * per task running at once, idle ones reused) with a timer thread of its own for the
 * tasks scheduled for later.
 */
final class SystemTaskPool implements TaskPool {

	/** How long an idle thread of a pool whose threads end when idle lives on. */
	private static final long IDLE_SECONDS = 10;

	private final ScheduledThreadPoolExecutor scheduled;

	/** The threads of an unbounded pool, {@code null} for a pool of a fixed size. */
	private final @Nullable ThreadPoolExecutor unbounded;

	/**
	 * Tasks running now (the executors' active counts also count a thread that has just
	 * started and runs nothing yet).
	 */
	private final AtomicInteger running = new AtomicInteger();

	SystemTaskPool(String name, int threads, boolean endWhenIdle) {
		ThreadFactory daemons = (runnable) -> {
			Thread thread = new Thread(runnable, name);
			thread.setDaemon(true);
			return thread;
		};
		boolean cached = threads == UNBOUNDED;
		this.scheduled = new ScheduledThreadPoolExecutor(cached ? 1 : threads, daemons);
		// Cancelled tasks must not pile up in the queue until their time comes.
		this.scheduled.setRemoveOnCancelPolicy(true);
		if (endWhenIdle || cached) {
			this.scheduled.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
			this.scheduled.allowCoreThreadTimeOut(true);
		}
		this.unbounded = cached ? new ThreadPoolExecutor(0, Integer.MAX_VALUE, endWhenIdle ? IDLE_SECONDS : 30,
				TimeUnit.SECONDS, new SynchronousQueue<>(), daemons) : null;
	}

	@Override
	public void execute(Runnable task) {
		if (this.unbounded != null) {
			this.unbounded.execute(counted(task));
		}
		else {
			this.scheduled.execute(counted(task));
		}
	}

	@Override
	public Scheduled schedule(Runnable task, long delayNanos) {
		Runnable run = (this.unbounded != null) ? () -> execute(task) : counted(task);
		ScheduledFuture<?> future = this.scheduled.schedule(run, delayNanos, TimeUnit.NANOSECONDS);
		return () -> future.cancel(false);
	}

	private Runnable counted(Runnable task) {
		return () -> {
			this.running.incrementAndGet();
			try {
				task.run();
			}
			finally {
				this.running.decrementAndGet();
			}
		};
	}

	@Override
	public int pending() {
		return this.scheduled.getQueue().size() + this.running.get();
	}

	@Override
	public boolean isShutdown() {
		return this.scheduled.isShutdown();
	}

	@Override
	public void shutdown() {
		this.scheduled.shutdown();
		if (this.unbounded != null) {
			this.unbounded.shutdown();
		}
	}

	@Override
	public void shutdownNow() {
		this.scheduled.shutdownNow();
		if (this.unbounded != null) {
			this.unbounded.shutdownNow();
		}
	}

	@Override
	public boolean awaitTermination(long nanos) {
		long deadline = System.nanoTime() + nanos;
		try {
			boolean done = this.scheduled.awaitTermination(nanos, TimeUnit.NANOSECONDS);
			if (this.unbounded != null) {
				done &= this.unbounded.awaitTermination(Math.max(0, deadline - System.nanoTime()),
						TimeUnit.NANOSECONDS);
			}
			return done;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
