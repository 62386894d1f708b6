package io.github.distlock.core;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.github.distlock.runtime.EngineRuntime;

/**
 * What tests of other packages may see of the engine's package-private classes. Lives in
 * the engine's package (on the test class path only) instead of widening its API.
 */
public final class EngineProbe {

	/** Length of an owner token: 32 hexadecimal characters. */
	public static final int OWNER_TOKEN_LENGTH = EngineRuntime.system().newOwnerToken().length();

	private EngineProbe() {
	}

	/**
	 * Whether {@code thread} is parked in the queue of a lock: its blocker is its
	 * {@link Waiter}.
	 * @param thread the thread
	 * @return whether it waits as a queued waiter
	 */
	public static boolean isQueuedWaiter(Thread thread) {
		return LockSupport.getBlocker(thread) instanceof Waiter;
	}

	/**
	 * Whether {@code thread} waits for a lock of the engine held across a store call (a
	 * held lock's lease lock: a renewal or {@code extend} in flight).
	 * @param thread the thread
	 * @return whether it waits for such a lock
	 */
	public static boolean waitsForALeaseLock(Thread thread) {
		Thread.State state = thread.getState();
		return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
				&& LockSupport.getBlocker(thread) instanceof ParkingLock;
	}

	/**
	 * How many times a local head of {@code engine} stopped holding back for the turn of
	 * other instances because the fallback had passed, not because the announcement it
	 * waited for had arrived.
	 * @param engine the engine
	 * @return the count since the engine started
	 */
	public static long announcementFallbacks(LockEngine engine) {
		return engine.announcementFallbacks();
	}

	/**
	 * The engine's owner token source (the system runtime's).
	 * @return a source of owner tokens
	 */
	public static Supplier<String> newOwnerTokens() {
		return EngineRuntime.system()::newOwnerToken;
	}

}
