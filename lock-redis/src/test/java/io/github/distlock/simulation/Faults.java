package io.github.distlock.simulation;

/**
 * When the world was last disturbed: faults on now, and the time of the last change, so
 * that the checks of bounds (liveness, ghost locks, loss reports) judge only calm
 * stretches: no fault on, and none for long enough that what a fault left behind (a lock
 * whose release went unanswered, a dead process's lock) has run out with its lease.
 */
final class Faults {

	private final Simulation world;

	private final long settleNanos;

	private int on;

	private long lastChange = Simulation.START_NANOS;

	/**
	 * @param settleNanos how long after the last fault the world counts as calm again
	 */
	Faults(Simulation world, long settleNanos) {
		this.world = world;
		this.settleNanos = settleNanos;
	}

	void started() {
		this.on++;
		this.lastChange = this.world.now();
	}

	void ended() {
		this.on--;
		this.lastChange = this.world.now();
	}

	/** A fault of no duration (a crash): it disturbs the world from now on. */
	void happened() {
		this.lastChange = this.world.now();
	}

	/**
	 * Whether the world has been calm since {@code sinceNanos}: no fault on or changed
	 * from a settling time before it until now.
	 */
	boolean calmSince(long sinceNanos) {
		return this.on == 0 && this.lastChange + this.settleNanos <= sinceNanos;
	}

	/** Whether the world is calm now. */
	boolean calm() {
		return this.on == 0 && this.world.now() - this.lastChange >= this.settleNanos;
	}

}
