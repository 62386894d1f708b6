package io.github.distlock.simulation;

import java.lang.reflect.Method;

/**
 * The real threads simulated threads run on: virtual ones where the JDK has them (21+:
 * handing the turn on costs a continuation switch, about a microsecond, not an operating
 * system one; a thousand worlds run in about 16 s instead of 2 minutes), else daemon
 * platform threads. {@code -Dsimulation.platformThreads=true} forces platform threads.
 * The test sources are Java 17, so virtual threads are reached by reflection.
 */
final class RealThreads {

	/** Thread.ofVirtual, Thread.Builder.name and Thread.Builder.unstarted, or null. */
	private static final Method[] VIRTUAL_THREADS = virtualThreads();

	private RealThreads() {
	}

	/** Whether the threads are virtual ones. */
	static boolean areVirtual() {
		return VIRTUAL_THREADS != null;
	}

	/** An unstarted thread running {@code body}. */
	static Thread newThread(Runnable body, String name) {
		if (VIRTUAL_THREADS != null) {
			try {
				// Through the public interface Thread.Builder: the builder's own class is
				// not public, so its methods cannot be invoked reflectively.
				Object builder = VIRTUAL_THREADS[0].invoke(null);
				builder = VIRTUAL_THREADS[1].invoke(builder, name);
				return (Thread) VIRTUAL_THREADS[2].invoke(builder, body);
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Could not start a virtual thread", ex);
			}
		}
		Thread real = new Thread(body, name);
		real.setDaemon(true);
		return real;
	}

	private static Method[] virtualThreads() {
		if (Boolean.getBoolean("simulation.platformThreads")) {
			return null;
		}
		try {
			Class<?> builder = Class.forName("java.lang.Thread$Builder");
			return new Method[] { Thread.class.getMethod("ofVirtual"), builder.getMethod("name", String.class),
					builder.getMethod("unstarted", Runnable.class) };
		}
		catch (ClassNotFoundException | NoSuchMethodException ex) {
			return null;
		}
	}

}
