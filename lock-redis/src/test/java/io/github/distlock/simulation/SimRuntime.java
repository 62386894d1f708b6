package io.github.distlock.simulation;

import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.github.distlock.runtime.EngineRuntime;
import io.github.distlock.runtime.TaskPool;

/**
 * The {@link EngineRuntime} of a simulated world: its virtual clock, its parking, pools
 * of its threads (belonging to the process that makes the pool), its seeded jitter, and
 * owner tokens counted up (readable in traces, unique in the world).
 */
final class SimRuntime implements EngineRuntime {

	private final Simulation world;

	private long tokens;

	/** Draws the preemptions, apart from the world's choices; {@code null}: none. */
	private final Random preemptions;

	/**
	 * @param preemptions where the preemptions of renewal threads are drawn from, or
	 * {@code null} for none
	 */
	SimRuntime(Simulation world, Random preemptions) {
		this.world = world;
		this.preemptions = preemptions;
	}

	/**
	 * The clock; and where a renewal thread reads it at one of the {@link #PREEMPTED}
	 * points, now and then a preemption: the thread is descheduled for up to
	 * {@value #MAX_PREEMPTION_MILLIS} ms of virtual time (a loaded machine, a pause of
	 * the JVM), so that other threads run between two of its instructions. Elsewhere a
	 * thread runs until it parks, and windows with no park in them cannot be split (see
	 * docs/simulation.md, what it does not reach). Issue 39, 1 sat in such a window: a
	 * renewal batch frees its lease locks, and an {@code extend} waiting for one runs
	 * before the batch schedules the next renewal.
	 */
	@Override
	public long nanoTime() {
		SimThread me = this.world.currentThread();
		if (this.preemptions != null && me != null && me.name.contains(RENEWAL_THREADS) && !this.world.isScheduling()
				&& preemptedHere() && this.preemptions.nextBoolean()) {
			long pause = TimeUnit.MICROSECONDS.toNanos(100 + this.preemptions.nextInt(MAX_PREEMPTION_MILLIS * 1000));
			this.world.trace().log(me.name, "preempted for " + pause / 1000 + " us");
			long until = this.world.now() + pause;
			while (this.world.now() < until && !me.isKilled()) {
				this.world.park(until - this.world.now());
			}
		}
		return this.world.now();
	}

	/**
	 * Where a renewal thread is preempted: between the last lease lock taken and the
	 * batch's send (an {@code extend} then waits for the batch), and before a renewal is
	 * scheduled for the sweep (after the lease locks were freed). No monitor is held at
	 * either, so the other threads can run.
	 */
	private static final Set<String> PREEMPTED = Set.of("RenewalBatch.send", "RenewalSweep.renewIn");

	private static final String RENEWAL_THREADS = "distlock-renewal";

	private static final int MAX_PREEMPTION_MILLIS = 100;

	private static final StackWalker STACK = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

	private static boolean preemptedHere() {
		return STACK.walk((frames) -> frames.skip(2)
			.limit(2)
			.map((frame) -> frame.getDeclaringClass().getSimpleName() + "." + frame.getMethodName())
			.anyMatch(PREEMPTED::contains));
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
