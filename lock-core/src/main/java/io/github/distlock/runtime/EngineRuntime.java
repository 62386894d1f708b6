package io.github.distlock.runtime;

/**
 * What the engine takes from the platform: a monotonic clock, parking and waking its
 * threads, pools of threads for its background work, random jitter, and owner tokens.
 * Every deadline, lease, back-off and wait of the engine runs on it.
 * <p>
 * {@link #system()} is the JVM's own ({@link System#nanoTime()},
 * {@link java.util.concurrent.locks.LockSupport}, daemon thread pools, strong random
 * tokens) and what every application uses. A deterministic simulation brings its own:
 * virtual time that moves only when every thread waits, threads that run one at a time in
 * an order drawn from a seed, and seeded randomness, so that a run is a function of its
 * seed. For that to hold, the engine never blocks but through {@link #park} (a lock held
 * across a store call is a {@link ParkingLock}), reads no other clock, and starts no
 * thread but through {@link #newTaskPool}.
 */
public interface EngineRuntime {

	/**
	 * The JVM's runtime.
	 * @return the runtime of every application
	 */
	static EngineRuntime system() {
		return SystemRuntime.INSTANCE;
	}

	/**
	 * A monotonic time in nanoseconds, as {@link System#nanoTime()}: only differences
	 * count.
	 * @return the time now
	 */
	long nanoTime();

	/**
	 * Parks the calling thread, as
	 * {@link java.util.concurrent.locks.LockSupport#parkNanos(Object, long)}: until it is
	 * {@linkplain #unpark unparked} (or was, since its last park), interrupted, the time
	 * passed, or for no reason at all.
	 * @param blocker what the thread waits for
	 * @param nanos how long at most
	 */
	void park(Object blocker, long nanos);

	/**
	 * Makes the next {@link #park} of {@code thread} return at once, or ends its current
	 * one.
	 * @param thread the thread
	 */
	void unpark(Thread thread);

	/**
	 * A new pool of daemon threads for the engine's background work.
	 * @param name the threads' name
	 * @param threads how many threads at most, or {@link TaskPool#UNBOUNDED}
	 * @param endWhenIdle whether its threads end when idle (started again when needed)
	 * @return the pool
	 */
	TaskPool newTaskPool(String name, int threads, boolean endWhenIdle);

	/**
	 * A uniformly random number from 0 to {@code bound}, both included, for jitter.
	 * @param bound the largest, at least 0
	 * @return the number
	 */
	long jitter(long bound);

	/**
	 * A fresh owner token, never handed out before: unguessable, so that no other client
	 * can release or extend a lock it does not own.
	 * @return the token, without line breaks
	 */
	String newOwnerToken();

}
