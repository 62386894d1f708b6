package io.github.distlock.simulation;

/** Thrown in a thread of a world that ended, or of a crashed process: it unwinds. */
final class Killed extends Error {

	Killed() {
		super("simulated thread stopped", null, false, false);
	}

}
