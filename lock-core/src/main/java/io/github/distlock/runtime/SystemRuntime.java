package io.github.distlock.runtime;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The JVM's {@link EngineRuntime}: {@link System#nanoTime()}, {@link LockSupport}, pools
 * of daemon threads, {@link ThreadLocalRandom} jitter and strong owner tokens
 * ({@link OwnerTokens}).
 */
final class SystemRuntime implements EngineRuntime {

	static final SystemRuntime INSTANCE = new SystemRuntime();

	private final OwnerTokens tokens = new OwnerTokens();

	private SystemRuntime() {
	}

	@Override
	public long nanoTime() {
		return System.nanoTime();
	}

	@Override
	public void park(Object blocker, long nanos) {
		LockSupport.parkNanos(blocker, nanos);
	}

	@Override
	public void unpark(Thread thread) {
		LockSupport.unpark(thread);
	}

	@Override
	public TaskPool newTaskPool(String name, int threads, boolean endWhenIdle) {
		return new SystemTaskPool(name, threads, endWhenIdle);
	}

	@Override
	public long jitter(long bound) {
		return ThreadLocalRandom.current().nextLong(bound + 1);
	}

	@Override
	public String newOwnerToken() {
		return this.tokens.next();
	}

	@Override
	public String toString() {
		return "EngineRuntime.system()";
	}

}
