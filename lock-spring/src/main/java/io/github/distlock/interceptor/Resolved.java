package io.github.distlock.interceptor;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A collaborator resolved on first use and kept, without a lock: the first callers may
 * each resolve it (a bean lookup, the same bean every time) and the first value stored
 * wins. Spring's {@code SingletonSupplier} takes a lock for the first resolution, which
 * the first concurrent calls of a reactive locked method would wait for on their event
 * loops.
 *
 * @param <T> the collaborator's type
 */
final class Resolved<T> implements Supplier<T> {

	private final Supplier<T> resolver;

	private volatile @Nullable T value;

	private Resolved(Supplier<T> resolver) {
		this.resolver = resolver;
	}

	static <T> Resolved<T> of(Supplier<T> resolver) {
		return new Resolved<>(resolver);
	}

	@Override
	public T get() {
		T resolved = this.value;
		if (resolved == null) {
			resolved = this.resolver.get();
			this.value = resolved;
		}
		return resolved;
	}

}
