package io.github.distlock.simulation;

import java.util.Comparator;
import java.util.concurrent.Semaphore;

/** A thread of the world: its real thread and its turn. */
final class SimThread {

	static final Comparator<SimThread> BY_ID = Comparator.comparingInt((t) -> t.id);

	enum State {

		RUNNABLE, RUNNING, PARKED, ENDED

	}

	final int id;

	final String name;

	private final Simulation world;

	private final SimProcess process;

	final Semaphore turn = new Semaphore(0);

	private Thread real;

	State state = State.RUNNABLE;

	private boolean permit;

	private Event timeout;

	private volatile boolean killed;

	SimThread(Simulation world, int id, String name, SimProcess process) {
		this.world = world;
		this.id = id;
		this.name = name;
		this.process = process;
	}

	void attach(Thread real) {
		this.real = real;
	}

	Thread real() {
		return this.real;
	}

	SimProcess process() {
		return this.process;
	}

	void body(Runnable body) {
		try {
			awaitTurn();
			body.run();
		}
		catch (Killed ex) {
			return;
		}
		catch (Throwable ex) {
			if (!this.killed) {
				this.world.trace().failure(this.name, ex);
			}
		}
		if (!this.killed) {
			this.world.exit(this);
		}
	}

	void awaitTurn() {
		this.turn.acquireUninterruptibly();
		if (this.killed) {
			throw new Killed();
		}
		if (this.world.current() != this) {
			this.world.trace()
				.failure(this.name,
						new IllegalStateException(this + " runs while " + this.world.current() + " has the turn"));
		}
	}

	void giveTurn() {
		this.turn.release();
	}

	void kill() {
		this.killed = true;
		this.turn.release();
	}

	boolean isKilled() {
		return this.killed || this.process.isCrashed();
	}

	boolean takePermit() {
		boolean had = this.permit;
		this.permit = false;
		return had;
	}

	void grantPermit() {
		this.permit = true;
	}

	boolean isParked() {
		return this.state == State.PARKED;
	}

	void parkedUntil(Event timeout) {
		this.state = State.PARKED;
		this.timeout = timeout;
	}

	void runnable() {
		this.state = State.RUNNABLE;
		if (this.timeout != null) {
			this.timeout.cancel();
			this.timeout = null;
		}
	}

	void running() {
		this.state = State.RUNNING;
	}

	void ended() {
		this.state = State.ENDED;
	}

	@Override
	public String toString() {
		return this.name;
	}

}
