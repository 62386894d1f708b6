package io.github.distlock;

import java.util.Optional;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The locks held by the enclosing {@link ReactiveLockService#executeLocked executeLocked}
 * calls and {@link DistributedLock @DistributedLock} methods of a reactive pipeline, kept
 * in its Reactor {@code Context}: the reactive {@link LockContext}.
 */
public final class ReactiveLockContext {

	private static final Object KEY = ReactiveLockContext.class;

	private ReactiveLockContext() {
	}

	/**
	 * The innermost lock held around the subscriber of the returned {@code Mono}.
	 * @return the handle (for its fencing token), or empty outside a locked pipeline
	 */
	public static Mono<ReactiveLockHandle> current() {
		return Mono.deferContextual((context) -> Mono.justOrEmpty(innermost(context)));
	}

	/**
	 * The innermost lock held in {@code context}.
	 * @param context a subscriber's context
	 * @return the handle, or empty
	 */
	public static Optional<ReactiveLockHandle> innermost(ContextView context) {
		return context.<Held>getOrEmpty(KEY).map(Held::handle);
	}

	/**
	 * The innermost lock held in {@code context} that {@code matches}, for reentrancy.
	 * @param context a subscriber's context
	 * @param matches which handle is looked for
	 * @return the handle, or empty
	 */
	public static Optional<ReactiveLockHandle> find(ContextView context, Predicate<ReactiveLockHandle> matches) {
		for (Held held = context.getOrDefault(KEY, null); held != null; held = held.outer) {
			if (matches.test(held.handle)) {
				return Optional.of(held.handle);
			}
		}
		return Optional.empty();
	}

	/**
	 * {@code context} with {@code handle} as the innermost lock, for lock services and
	 * interceptors.
	 * @param context the context of the locked part of a pipeline
	 * @param handle the lock it holds
	 * @return the new context
	 */
	public static Context with(Context context, ReactiveLockHandle handle) {
		return context.put(KEY, new Held(handle, context.getOrDefault(KEY, null)));
	}

	/** One held lock, inside the locks of the enclosing calls. */
	private record Held(ReactiveLockHandle handle, @Nullable Held outer) {

	}

}
