package io.github.distlock.fault.nemesis;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;

/**
 * The JVM's {@link EngineRuntime}, except that while a stall is set every clock read on a
 * thread of the engine's renewal pool ({@code distlock-renewal}) first waits that long: a
 * client whose renewal threads are starved of CPU (a CPU quota, a noisy neighbour), cut
 * at the points where the engine reads the time. A renewal then takes a few stalls longer
 * (about four of them for a lock renewed alone), still far inside a lease; what it widens
 * are the windows between a renewal's steps, where an {@code extend} on the holder's
 * thread can come in between (the nemesis's {@code slow-renewals} fault).
 */
final class RenewalStalls implements EngineRuntime {

	/** The name of the engine's renewal threads (see {@code LockRenewer}). */
	private static final String RENEWAL_THREADS = "distlock-renewal";

	private final EngineRuntime system = EngineRuntime.system();

	private volatile long stallNanos;

	/** Sets the stall, 0 for none. */
	void stall(long millis) {
		this.stallNanos = TimeUnit.MILLISECONDS.toNanos(millis);
	}

	@Override
	public long nanoTime() {
		long stall = this.stallNanos;
		if (stall > 0 && Thread.currentThread().getName().equals(RENEWAL_THREADS)) {
			long until = System.nanoTime() + stall;
			for (long left = stall; left > 0
					&& !Thread.currentThread().isInterrupted(); left = until - System.nanoTime()) {
				LockSupport.parkNanos(this, left);
			}
		}
		return this.system.nanoTime();
	}

	@Override
	public void park(Object blocker, long nanos) {
		this.system.park(blocker, nanos);
	}

	@Override
	public void unpark(Thread thread) {
		this.system.unpark(thread);
	}

	@Override
	public TaskPool newTaskPool(String name, int threads, boolean endWhenIdle) {
		return this.system.newTaskPool(name, threads, endWhenIdle);
	}

	@Override
	public long jitter(long bound) {
		return this.system.jitter(bound);
	}

	@Override
	public String newOwnerToken() {
		return this.system.newOwnerToken();
	}

}
