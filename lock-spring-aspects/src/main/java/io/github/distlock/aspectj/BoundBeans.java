package io.github.distlock.aspectj;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The {@link AspectJLockSupport} of the application context that created each bean with
 * locked methods, by bean instance: the aspect locks a bean's woven methods through its
 * own context, whichever context started last (cached test contexts live side by side in
 * one class loader). Beans are held weakly and by identity, so a closed context's beans
 * are forgotten when collected, and a bean's {@code equals} plays no part.
 */
final class BoundBeans {

	private final ConcurrentHashMap<Key, AspectJLockSupport> supports = new ConcurrentHashMap<>();

	private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

	/**
	 * Remembers that {@code bean} was created by the context of {@code support}.
	 */
	void register(Object bean, AspectJLockSupport support) {
		expungeCollected();
		this.supports.put(new Key(bean, this.collected), support);
	}

	/**
	 * The support of the context that created {@code target}, if a bound context did.
	 */
	@Nullable AspectJLockSupport supportOf(Object target) {
		return this.supports.get(new Key(target, null));
	}

	private void expungeCollected() {
		for (Reference<?> gone = this.collected.poll(); gone != null; gone = this.collected.poll()) {
			this.supports.remove(gone);
		}
	}

	/** A bean, weakly and by identity. */
	private static final class Key extends WeakReference<Object> {

		private final int hash;

		Key(Object bean, @Nullable ReferenceQueue<Object> queue) {
			super(bean, queue);
			this.hash = System.identityHashCode(bean);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			if (this == other) {
				return true;
			}
			Object bean = get();
			return bean != null && other instanceof Key key && key.get() == bean;
		}

		@Override
		public int hashCode() {
			return this.hash;
		}

	}

}
