package io.github.distlock.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One simulated world: virtual time, and real threads that run one at a time in an order
 * drawn from a seed, so that a run is a function of its seed.
 * <p>
 * A thread runs until it parks ({@link #park}) or ends; then the next runnable thread is
 * drawn from the seeded random source, or, when none is runnable, virtual time jumps to
 * the next event (a parked thread's timeout, a task coming due, a message arriving) and
 * the event runs. Events run on whichever thread just stopped, and never park. Time moves
 * only when every thread waits, so timeouts, leases and back-offs of seconds cost
 * nothing.
 * <p>
 * A thread belongs to a {@link SimProcess}; a crashed process's threads never run again
 * (their real threads are released with {@link Killed} when the world ends).
 */
final class Simulation {

	private static final boolean DEBUG_TURNS = Boolean.getBoolean("simulation.debugTurns");

	/** Virtual time at the start, in nanoseconds: about 2026-01-01 as epoch nanos. */
	static final long START_NANOS = 1_767_225_600_000_000_000L;

	private final Random random;

	private final Trace trace;

	private final ReentrantLock lock = new ReentrantLock();

	private final PriorityQueue<Event> events = new PriorityQueue<>();

	/** Runnable threads in order of creation, drawn from at random. */
	private final List<SimThread> runnable = new ArrayList<>();

	private final WorldThreads threads = new WorldThreads();

	private final CountDownLatch ended = new CountDownLatch(1);

	private final long endNanos;

	private long now = START_NANOS;

	private long eventSequence;

	private long turns;

	private volatile boolean over;

	private volatile String endReason = "";

	private volatile SimThread current;

	/**
	 * @param seed the seed every choice comes from
	 * @param trace where what happens is written
	 * @param maxVirtualNanos when the world ends at the latest, in virtual time
	 */
	Simulation(long seed, Trace trace, long maxVirtualNanos) {
		this.random = new Random(seed);
		this.trace = trace;
		this.endNanos = START_NANOS + maxVirtualNanos;
	}

	/** Virtual time now, in nanoseconds. */
	long now() {
		return this.now;
	}

	/** How many times the turn was handed on. */
	long turns() {
		return this.turns;
	}

	/** How many threads the world started. */
	int threadCount() {
		return this.threads.count();
	}

	Random random() {
		return this.random;
	}

	Trace trace() {
		return this.trace;
	}

	/**
	 * Runs {@code main} as the world's first thread and waits until the world ends: every
	 * thread ended or waits forever, or the virtual time limit passed.
	 * @param realTimeout how long to wait in real time before declaring the world hung
	 * @return why it ended
	 */
	String run(SimProcess process, Runnable main, long realTimeout, TimeUnit unit) {
		this.lock.lock();
		try {
			newThread("main", process, main);
			schedule(null);
		}
		finally {
			this.lock.unlock();
		}
		try {
			if (!this.ended.await(realTimeout, unit)) {
				this.endReason = "hung: no progress within " + realTimeout + " " + unit + " of real time at "
						+ this.trace.time(this.now) + WorldThreads.where(this.current);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.endReason = "interrupted";
		}
		killAll();
		return this.endReason;
	}

	/**
	 * Starts a thread of {@code process}; it runs when drawn.
	 * @return the thread
	 */
	SimThread start(String name, SimProcess process, Runnable body) {
		this.lock.lock();
		try {
			return newThread(name, process, body);
		}
		finally {
			this.lock.unlock();
		}
	}

	private SimThread newThread(String name, SimProcess process, Runnable body) {
		SimThread thread = this.threads.create(this, process, name, body);
		this.runnable.add(thread);
		thread.real().start();
		return thread;
	}

	/**
	 * Whether the calling thread is handing the turn on, running events (which must not
	 * park).
	 */
	boolean isScheduling() {
		return this.lock.isHeldByCurrentThread();
	}

	/** The sim thread of {@code real}, or {@code null} if it is none. */
	SimThread simThreadOf(Thread real) {
		return this.threads.of(real);
	}

	/** The sim thread the calling real thread is, or {@code null} if none. */
	SimThread currentThread() {
		SimThread running = this.current;
		return (running != null && running.real() == Thread.currentThread()) ? running : null;
	}

	/**
	 * Schedules {@code action} at {@code atNanos} (virtual); it runs on the thread that
	 * stops when its time comes, and must not park.
	 * @return the event, to cancel
	 */
	Event at(long atNanos, String what, Runnable action) {
		this.lock.lock();
		try {
			Event event = new Event(Math.max(atNanos, this.now), ++this.eventSequence, what, action);
			this.events.add(event);
			return event;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** {@link #at} {@code delayNanos} from now. */
	Event after(long delayNanos, String what, Runnable action) {
		return at(saturatedAdd(this.now, delayNanos), what, action);
	}

	/**
	 * Parks the calling thread for {@code nanos} at most (until unparked, interrupted or
	 * the time passed), or returns at once if it was unparked since its last park. An
	 * interrupted thread's park returns after a microsecond, as a real one returns after
	 * the instructions of a spin: a loop that parks while interrupted lets time go on.
	 */
	void park(long nanos) {
		SimThread me = requireCurrent();
		if (me.takePermit()) {
			return;
		}
		if (Thread.currentThread().isInterrupted()) {
			nanos = Math.min(nanos, 1000);
		}
		this.lock.lock();
		try {
			me.parkedUntil(nanos >= Long.MAX_VALUE / 4 ? null
					: at(saturatedAdd(this.now, nanos), "timeout of " + me.name, () -> wake(me)));
			schedule(me);
		}
		finally {
			this.lock.unlock();
		}
		me.awaitTurn();
	}

	/** Makes {@code thread} runnable, or its next park return at once. */
	void unpark(SimThread thread) {
		this.lock.lock();
		try {
			if (thread.isParked()) {
				wake(thread);
			}
			else {
				thread.grantPermit();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Interrupts {@code thread}, waking it if it waits. */
	void interrupt(SimThread thread) {
		thread.real().interrupt();
		unpark(thread);
	}

	private void wake(SimThread thread) {
		if (thread.isParked() && !thread.process().isCrashed()) {
			thread.runnable();
			this.runnable.add(thread);
			this.runnable.sort(SimThread.BY_ID);
		}
	}

	/** The calling thread ended. */
	void exit(SimThread me) {
		this.lock.lock();
		try {
			me.ended();
			schedule(me);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Stops every thread of a crashed process from running again. */
	void crashed(SimProcess process) {
		this.lock.lock();
		try {
			this.runnable.removeIf((thread) -> thread.process() == process);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Hands the turn on from {@code from} (parked or ended; {@code null} at the start),
	 * drawing the next thread or running events until one is runnable. Under the lock.
	 */
	private void schedule(SimThread from) {
		while (this.runnable.isEmpty()) {
			Event event = this.events.poll();
			if (event != null && event.cancelled()) {
				continue;
			}
			if (this.over || event == null || event.atNanos() > this.endNanos) {
				if (!this.over) {
					end((event == null) ? "quiescent: every thread ended or waits forever"
							: "virtual time limit reached");
				}
				return;
			}
			this.now = event.atNanos();
			event.run();
		}
		if (this.over) {
			return;
		}
		SimThread next = this.runnable.remove(this.random.nextInt(this.runnable.size()));
		if (next.turn.availablePermits() != 0 || next.state == SimThread.State.RUNNING) {
			throw new IllegalStateException(next + " was given a turn it had already: " + next.state);
		}
		this.turns++;
		if (DEBUG_TURNS) {
			this.trace.log("turn", from + " -> " + next + " (runnable " + this.runnable + ")");
		}
		next.running();
		this.current = next;
		// Also to the thread that stops, if drawn again: it takes its turn at once.
		next.giveTurn();
	}

	private void end(String reason) {
		this.endReason = reason;
		this.over = true;
		this.current = null;
		this.ended.countDown();
	}

	boolean isOver() {
		return this.over;
	}

	/** Ends the world at once (the workload is done). */
	void stop(String reason) {
		this.lock.lock();
		try {
			if (!this.over) {
				end(reason);
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private SimThread requireCurrent() {
		SimThread me = currentThread();
		if (me == null || me.isKilled()) {
			throw new Killed();
		}
		return me;
	}

	private void killAll() {
		List<SimThread> all;
		this.lock.lock();
		try {
			this.over = true;
			this.trace.close();
			all = this.threads.all();
		}
		finally {
			this.lock.unlock();
		}
		WorldThreads.killAll(all);
	}

	/** The thread that has the turn, or {@code null}. */
	SimThread current() {
		return this.current;
	}

	private static long saturatedAdd(long a, long b) {
		long sum = a + b;
		return (((a ^ sum) & (b ^ sum)) < 0) ? Long.MAX_VALUE : sum;
	}

}
