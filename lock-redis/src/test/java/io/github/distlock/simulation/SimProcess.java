package io.github.distlock.simulation;

/**
 * A simulated process (an application instance, or the nemesis): its threads run while it
 * lives; a crash stops them all at once, as {@code kill -9} would.
 */
final class SimProcess {

	private final String name;

	private volatile boolean crashed;

	SimProcess(String name) {
		this.name = name;
	}

	String name() {
		return this.name;
	}

	boolean isCrashed() {
		return this.crashed;
	}

	void crash() {
		this.crashed = true;
	}

	@Override
	public String toString() {
		return this.name;
	}

}
