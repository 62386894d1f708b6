package io.github.distlock.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.distlock.runtime.TaskPool;

/**
 * A {@link TaskPool} of simulated threads of one process: due tasks wait in arrival order
 * for one of at most {@code maxThreads} workers, created when needed and parked when
 * idle. Delayed tasks are events of the world.
 */
final class SimTaskPool implements TaskPool {

	private final Simulation world;

	private final SimProcess process;

	private final String name;

	private final int maxThreads;

	private final ArrayDeque<Runnable> ready = new ArrayDeque<>();

	private final List<Worker> workers = new ArrayList<>();

	private int busy;

	private int delayed;

	private boolean shutdown;

	SimTaskPool(Simulation world, SimProcess process, String name, int maxThreads) {
		this.world = world;
		this.process = process;
		this.name = name;
		this.maxThreads = maxThreads;
	}

	@Override
	public void execute(Runnable task) {
		if (this.shutdown) {
			throw new RejectedExecutionException(this.name + " is shut down");
		}
		this.ready.addLast(task);
		dispatch();
	}

	@Override
	public Scheduled schedule(Runnable task, long delayNanos) {
		if (this.shutdown) {
			throw new RejectedExecutionException(this.name + " is shut down");
		}
		Delayed delayedTask = new Delayed(task);
		this.delayed++;
		delayedTask.event = this.world.after(delayNanos, this.name + " task due", delayedTask::due);
		return delayedTask::cancel;
	}

	@Override
	public int pending() {
		return this.ready.size() + this.busy + this.delayed;
	}

	@Override
	public boolean isShutdown() {
		return this.shutdown;
	}

	@Override
	public void shutdown() {
		this.shutdown = true;
		for (Worker worker : this.workers) {
			if (worker.idle) {
				this.world.unpark(worker.thread);
			}
		}
	}

	@Override
	public void shutdownNow() {
		shutdown();
		this.ready.clear();
		for (Worker worker : this.workers) {
			if (!worker.idle && worker.thread != null) {
				this.world.interrupt(worker.thread);
			}
		}
	}

	@Override
	public boolean awaitTermination(long nanos) {
		long deadline = this.world.now() + nanos;
		while (pending() > 0) {
			long left = deadline - this.world.now();
			if (left <= 0) {
				return false;
			}
			this.world.park(Math.min(left, TimeUnit.MILLISECONDS.toNanos(1)));
		}
		return true;
	}

	private void dispatch() {
		if (this.process.isCrashed() || this.ready.isEmpty()) {
			return;
		}
		for (Worker worker : this.workers) {
			if (worker.idle && !worker.woken) {
				worker.woken = true;
				this.world.unpark(worker.thread);
				return;
			}
		}
		if (this.workers.size() < this.maxThreads) {
			Worker worker = new Worker();
			this.workers.add(worker);
			worker.thread = this.world.start(this.name + "-" + this.workers.size(), this.process, worker::work);
		}
	}

	/** A task scheduled for later. */
	private final class Delayed {

		private final Runnable task;

		private Event event;

		private boolean settled;

		Delayed(Runnable task) {
			this.task = task;
		}

		void due() {
			if (!this.settled) {
				this.settled = true;
				SimTaskPool.this.delayed--;
				SimTaskPool.this.ready.addLast(this.task);
				dispatch();
			}
		}

		void cancel() {
			if (!this.settled) {
				this.settled = true;
				SimTaskPool.this.delayed--;
				this.event.cancel();
			}
		}

	}

	/** One thread of the pool. */
	private final class Worker {

		SimThread thread;

		boolean idle;

		boolean woken;

		void work() {
			while (true) {
				Runnable task = SimTaskPool.this.ready.pollFirst();
				if (task == null) {
					if (SimTaskPool.this.shutdown && SimTaskPool.this.delayed == 0) {
						SimTaskPool.this.workers.remove(this);
						return;
					}
					this.idle = true;
					this.woken = false;
					SimTaskPool.this.world.park(Long.MAX_VALUE);
					this.idle = false;
					continue;
				}
				SimTaskPool.this.busy++;
				try {
					Thread.interrupted();
					task.run();
				}
				catch (Killed ex) {
					throw ex;
				}
				catch (Throwable ex) {
					SimTaskPool.this.world.trace()
						.failure(this.thread.name + " (a task of " + SimTaskPool.this.name + ")", ex);
				}
				finally {
					SimTaskPool.this.busy--;
				}
			}
		}

	}

}
