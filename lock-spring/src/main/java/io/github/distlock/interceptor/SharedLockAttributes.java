package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockMode;
import org.jspecify.annotations.Nullable;

/**
 * The startup checks of {@code @DistributedLock}'s shared-hold attributes, {@code mode}
 * and {@code permits}, for {@link AnnotationLockOperationSource}.
 */
final class SharedLockAttributes {

	private SharedLockAttributes() {
	}

	/**
	 * Fails for the combinations of {@code mode}, {@code permits} and {@code fair} that
	 * make no sense, and for shared ones the store cannot hold.
	 * @param sharedLocksUnsupported why the store has no shared locks, or {@code null}
	 * @throws IllegalStateException naming the method and the attributes
	 */
	static void check(Method method, DistributedLock annotation, @Nullable String sharedLocksUnsupported) {
		int permits = annotation.permits();
		if (permits < 1) {
			throw AnnotationLockOperationSource.invalid(method, "permits = " + permits
					+ " must be at least 1 (1, the default, is the exclusive" + " lock; more is a semaphore)");
		}
		boolean read = annotation.mode() == LockMode.READ;
		if (read && permits > 1) {
			throw AnnotationLockOperationSource.invalid(method,
					"mode = READ with permits = " + permits + ": READ holds are not counted (any number"
							+ " share an id); use mode = READ or permits, not both");
		}
		if (!read && permits == 1) {
			return;
		}
		String shared = read ? "mode = READ" : "permits = " + permits;
		if (annotation.fair()) {
			throw AnnotationLockOperationSource
				.invalid(method, shared + " with fair = true: shared holds never queue in the store (a waiting WRITE"
						+ " acquisition already goes before new ones), so there is no order to keep; drop fair = true");
		}
		if (sharedLocksUnsupported != null) {
			throw AnnotationLockOperationSource.invalid(method, shared + ", but " + sharedLocksUnsupported);
		}
	}

}
