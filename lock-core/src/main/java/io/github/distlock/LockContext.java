package io.github.distlock;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The locks held by {@link DistributedLock @DistributedLock} invocations on the current
 * thread.
 */
public final class LockContext {

	private static final ThreadLocal<Deque<LockHandle>> HELD = new ThreadLocal<>();

	private LockContext() {
	}

	/**
	 * The innermost lock held by an {@code @DistributedLock} invocation on this thread.
	 * @return the handle, or empty outside an annotated invocation
	 */
	public static Optional<LockHandle> current() {
		Deque<LockHandle> held = HELD.get();
		return (held != null) ? Optional.ofNullable(held.peek()) : Optional.empty();
	}

	/**
	 * Makes {@code handle} the current lock until {@link #pop()}. For interceptors.
	 * @param handle the handle of the invocation that starts
	 */
	public static void push(LockHandle handle) {
		Deque<LockHandle> held = HELD.get();
		if (held == null) {
			held = new ArrayDeque<>(2);
			HELD.set(held);
		}
		held.push(handle);
	}

	/**
	 * Restores the lock that was current before the matching {@link #push(LockHandle)}.
	 */
	public static void pop() {
		Deque<LockHandle> held = HELD.get();
		if (held != null) {
			held.poll();
			if (held.isEmpty()) {
				// Don't keep a deque per pooled thread once it holds nothing.
				HELD.remove();
			}
		}
	}

}
