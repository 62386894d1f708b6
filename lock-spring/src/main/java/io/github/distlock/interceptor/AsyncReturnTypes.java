package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockMode;
import org.jspecify.annotations.Nullable;

import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * Which methods whose work outlives the call {@code @DistributedLock} can lock: those
 * returning a reactive type or a {@code CompletionStage}, when Reactor is on the class
 * path (anything Spring's {@link ReactiveAdapterRegistry} adapts; they are locked by
 * {@link ReactiveLockInvocation}). The lock of any other such method would be released
 * when it returns, while its work still runs, so it fails the startup: a plain
 * {@code Future}, a Kotlin {@code suspend} function, a reactive type without Reactor.
 */
final class AsyncReturnTypes {

	private static final boolean reactorPresent = ClassUtils.isPresent("reactor.core.publisher.Flux",
			AsyncReturnTypes.class.getClassLoader());

	private AsyncReturnTypes() {
	}

	/**
	 * Why {@code method} cannot be locked for its return type.
	 * @param method the annotated method
	 * @param annotation its annotation
	 * @return the reason, or {@code null} when it can be
	 */
	static @Nullable String unsupported(Method method, DistributedLock annotation) {
		Class<?>[] parameters = method.getParameterTypes();
		if (parameters.length > 0
				&& parameters[parameters.length - 1].getName().equals("kotlin.coroutines.Continuation")) {
			return "it is a Kotlin suspend function: the lock would be released when it first suspends; return a"
					+ " Mono (mono { ... }) or a Flow instead";
		}
		Class<?> returnType = method.getReturnType();
		boolean adaptable = reactorPresent
				&& ReactiveAdapterRegistry.getSharedInstance().getAdapter(returnType) != null;
		if (!adaptable) {
			return asynchronous(returnType) ? "it returns " + returnType.getSimpleName() + ", whose work outlives the"
					+ " call: the lock would be released while it still runs"
					+ (Future.class.isAssignableFrom(returnType) ? "; return a CompletableFuture instead"
							: "; add Reactor (io.projectreactor:reactor-core) to lock it reactively")
					: null;
		}
		if (annotation.fair()) {
			return "fair = true is not supported on a method returning " + returnType.getSimpleName()
					+ " (the reactive lock service takes locks in the default mode)";
		}
		if (annotation.mode() == LockMode.READ || annotation.permits() > 1) {
			return (annotation.mode() == LockMode.READ ? "mode = READ" : "permits = " + annotation.permits())
					+ " is not supported on a method returning " + returnType.getSimpleName()
					+ " (the reactive lock service takes exclusive locks only)";
		}
		return null;
	}

	private static boolean asynchronous(Class<?> returnType) {
		return Future.class.isAssignableFrom(returnType) || CompletionStage.class.isAssignableFrom(returnType)
				|| isAssignable("org.reactivestreams.Publisher", returnType)
				|| isAssignable("kotlinx.coroutines.flow.Flow", returnType);
	}

	private static boolean isAssignable(String typeName, Class<?> returnType) {
		for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(returnType)) {
			if (type.getName().equals(typeName)) {
				return true;
			}
		}
		return returnType.getName().equals(typeName);
	}

}
