package io.github.distlock.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The threads of one world: created with their real threads, found by their real threads,
 * and released when the world ends. Created and listed under the world's lock.
 */
final class WorldThreads {

	private final List<SimThread> threads = new ArrayList<>();

	private final Map<Thread, SimThread> byReal = new ConcurrentHashMap<>();

	/** A new thread of {@code process}, its real thread not started yet. */
	SimThread create(Simulation world, SimProcess process, String name, Runnable body) {
		SimThread thread = new SimThread(world, this.threads.size() + 1, process.name() + "/" + name, process);
		Thread real = RealThreads.newThread(() -> thread.body(body), "sim-" + thread.name);
		thread.attach(real);
		this.byReal.put(real, thread);
		this.threads.add(thread);
		return thread;
	}

	/** The sim thread of {@code real}, or {@code null} if it is none. */
	SimThread of(Thread real) {
		return this.byReal.get(real);
	}

	int count() {
		return this.threads.size();
	}

	List<SimThread> all() {
		return new ArrayList<>(this.threads);
	}

	/** Releases every thread (each unwinds with {@link Killed}) and waits for them. */
	static void killAll(List<SimThread> threads) {
		for (SimThread thread : threads) {
			thread.kill();
		}
		for (SimThread thread : threads) {
			try {
				thread.real().join(TimeUnit.SECONDS.toMillis(5));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/** Where {@code stuck} is, for the report of a hung world. */
	static String where(SimThread stuck) {
		if (stuck == null) {
			return "";
		}
		StringBuilder where = new StringBuilder(" in ").append(stuck.name)
			.append(" (")
			.append(stuck.real().getState())
			.append(')');
		for (StackTraceElement frame : stuck.real().getStackTrace()) {
			where.append("\n      at ").append(frame);
		}
		return where.toString();
	}

}
