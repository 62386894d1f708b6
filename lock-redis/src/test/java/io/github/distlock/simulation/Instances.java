package io.github.distlock.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The application instances of a world: each a process with an engine and its workload
 * threads; one that crashes or shuts down is replaced by a new one, so that the workload
 * goes on until its end.
 */
final class Instances {

	private final Simulation world;

	private final Starter starter;

	private final List<Instance> live = new ArrayList<>();

	private int started;

	Instances(Simulation world, Starter starter) {
		this.world = world;
		this.starter = starter;
	}

	/** Starts a new instance (its threads run when drawn). */
	void startOne() {
		SimProcess process = new SimProcess("i" + (++this.started));
		this.world.start("init", process, () -> this.live.add(this.starter.start(process)));
	}

	/** A live instance's process, drawn at random, or {@code null}. */
	SimProcess random(Random random) {
		List<Instance> alive = alive();
		return alive.isEmpty() ? null : alive.get(random.nextInt(alive.size())).process;
	}

	/** Crashes an instance (as kill -9) and starts a new one. */
	void crashOne(Random random) {
		List<Instance> alive = alive();
		if (alive.size() < 2) {
			return;
		}
		Instance instance = alive.get(random.nextInt(alive.size()));
		this.world.trace().log("nemesis", "crashes " + instance.process);
		instance.process.crash();
		this.world.crashed(instance.process);
		startOne();
	}

	/** Shuts an instance down (as a rolling restart) and starts a new one. */
	void shutDownOne(Random random) {
		List<Instance> alive = alive();
		if (alive.size() < 2) {
			return;
		}
		Instance instance = alive.get(random.nextInt(alive.size()));
		instance.shutDown(this.world);
		startOne();
	}

	/** Shuts every live instance down, one after the other. */
	void shutDownAll() {
		for (Instance instance : alive()) {
			instance.shutDown(this.world);
		}
	}

	private List<Instance> alive() {
		return this.live.stream().filter(Instance::isAlive).toList();
	}

	/** Builds an instance on a thread of its process and starts its workload. */
	interface Starter {

		Instance start(SimProcess process);

	}

}
