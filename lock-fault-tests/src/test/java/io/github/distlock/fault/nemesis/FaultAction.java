package io.github.distlock.fault.nemesis;

import java.util.Random;

/**
 * A kind of fault: injects it with choices drawn from the nemesis's seeded random, lets
 * it last, heals it and returns what was done. It heals in a {@code finally}, so a
 * failing run leaves nothing frozen or cut off.
 */
@FunctionalInterface
interface FaultAction {

	Fault inject(Random random);

	/**
	 * Waits {@code millis}: the nemesis's pacing (how long a fault lasts), not a
	 * synchronisation.
	 */
	static void hold(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("nemesis interrupted", ex);
		}
	}

	/** A duration in {@code [min, max)} ms. */
	static long between(Random random, long min, long max) {
		return min + (long) (random.nextDouble() * (max - min));
	}

}
