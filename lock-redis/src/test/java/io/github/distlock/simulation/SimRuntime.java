package io.github.distlock.simulation;

import io.github.distlock.core.EngineRuntime;
import io.github.distlock.core.TaskPool;

/**
 * The {@link EngineRuntime} of a simulated world: its virtual clock, its parking, pools
 * of its threads (belonging to the process that makes the pool), its seeded jitter, and
 * owner tokens counted up (readable in traces, unique in the world).
 */
final class SimRuntime implements EngineRuntime {

	private final Simulation world;

	private long tokens;

	SimRuntime(Simulation world) {
		this.world = world;
	}

	@Override
	public long nanoTime() {
		return this.world.now();
	}

	@Override
	public void park(Object blocker, long nanos) {
		this.world.park(nanos);
	}

	@Override
	public void unpark(Thread thread) {
		SimThread simulated = this.world.simThreadOf(thread);
		if (simulated != null) {
			this.world.unpark(simulated);
		}
	}

	@Override
	public TaskPool newTaskPool(String name, int threads, boolean endWhenIdle) {
		SimThread creator = this.world.currentThread();
		if (creator == null) {
			throw new Killed();
		}
		return new SimTaskPool(this.world, creator.process(), name, threads);
	}

	@Override
	public long jitter(long bound) {
		return this.world.random().nextLong(bound + 1);
	}

	@Override
	public synchronized String newOwnerToken() {
		return String.format("owner%06d", ++this.tokens);
	}

}
