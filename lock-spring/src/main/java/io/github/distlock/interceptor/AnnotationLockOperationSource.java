package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.distlock.DistributedLock;
import io.github.distlock.OnLockFailure;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.EmbeddedValueResolverAware;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodClassKey;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.expression.Expression;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringValueResolver;

/**
 * Reads {@link DistributedLock @DistributedLock}, resolves placeholders, parses durations
 * and the key expression, and rejects what cannot work, once per method and target class.
 * <p>
 * Every annotated method of a class is validated the first time the class is seen (when
 * the auto-proxy creator asks whether the bean needs a proxy, or in AspectJ mode when the
 * bean is created), so a bad annotation fails the application context at startup with a
 * message naming the method and the attribute.
 * <p>
 * What can be locked depends on the {@link AdviceMode} that intercepts the calls: a proxy
 * reaches only methods it can override (not {@code private}, {@code static} or
 * {@code final}); AspectJ weaving reaches the execution of any method with a body, but
 * matches only annotations on the method that runs, never ones inherited from an
 * interface or an overridden method.
 */
public class AnnotationLockOperationSource implements LockOperationSource, EmbeddedValueResolverAware {

	/**
	 * Wait times beyond this are mistakes (a request thread blocked for days), not
	 * settings.
	 */
	public static final Duration MAX_WAIT_TIME = Duration.ofDays(1);

	private static final Object NOT_LOCKED = new Object();

	private final LockKeyEvaluator keyEvaluator;

	private final AdviceMode mode;

	private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

	private final Map<MethodClassKey, Object> operations = new ConcurrentHashMap<>(256);

	private final Set<Class<?>> validatedClasses = ConcurrentHashMap.newKeySet();

	private @Nullable StringValueResolver valueResolver;

	private @Nullable String fairLocksUnsupported;

	private @Nullable String sharedLocksUnsupported;

	/**
	 * A source for proxy-based interception.
	 * @param keyEvaluator parses the key expressions
	 */
	public AnnotationLockOperationSource(LockKeyEvaluator keyEvaluator) {
		this(keyEvaluator, AdviceMode.PROXY);
	}

	/**
	 * A source for the given advice mode, which decides which methods can be locked.
	 * @param keyEvaluator parses the key expressions
	 * @param mode how calls are intercepted
	 */
	public AnnotationLockOperationSource(LockKeyEvaluator keyEvaluator, AdviceMode mode) {
		this.keyEvaluator = keyEvaluator;
		this.mode = mode;
	}

	/**
	 * Makes {@code fair = true} invalid, because the configured store has no fair locks.
	 * @param reason why, naming the property that decides it, e.g.
	 * {@code "distributed-lock.store=quorum has no fair locks"}; {@code null} when fair
	 * locks are supported
	 */
	public void setFairLocksUnsupported(@Nullable String reason) {
		this.fairLocksUnsupported = reason;
	}

	/**
	 * Makes {@code mode = READ} and {@code permits} above 1 invalid, because the
	 * configured store has no shared locks.
	 * @param reason why, naming the property that decides it; {@code null} when shared
	 * locks are supported
	 */
	public void setSharedLocksUnsupported(@Nullable String reason) {
		this.sharedLocksUnsupported = reason;
	}

	@Override
	public void setEmbeddedValueResolver(StringValueResolver resolver) {
		this.valueResolver = resolver;
	}

	@Override
	public boolean isCandidateClass(Class<?> targetClass) {
		if (!AnnotationUtils.isCandidateClass(targetClass, DistributedLock.class)) {
			return false;
		}
		if (this.validatedClasses.add(targetClass)) {
			ReflectionUtils.doWithMethods(targetClass, (method) -> getLockOperation(method, targetClass),
					(method) -> method.getDeclaringClass() != Object.class);
			for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(targetClass)) {
				for (Method method : type.getMethods()) {
					getLockOperation(method, targetClass);
				}
			}
		}
		return true;
	}

	@Override
	public @Nullable LockOperation getLockOperation(Method method, @Nullable Class<?> targetClass) {
		if (method.getDeclaringClass() == Object.class) {
			return null;
		}
		MethodClassKey cacheKey = new MethodClassKey(method, targetClass);
		Object cached = this.operations.get(cacheKey);
		if (cached == null) {
			LockOperation operation = computeOperation(method, targetClass);
			cached = (operation != null) ? operation : NOT_LOCKED;
			this.operations.put(cacheKey, cached);
		}
		return (cached != NOT_LOCKED) ? (LockOperation) cached : null;
	}

	private @Nullable LockOperation computeOperation(Method method, @Nullable Class<?> targetClass) {
		Method specific = BridgeMethodResolver.findBridgedMethod(AopUtils.getMostSpecificMethod(method, targetClass));
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(specific, DistributedLock.class);
		if (annotation == null && specific != method) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		}
		return (annotation != null) ? parse(specific, targetClass, annotation) : null;
	}

	private LockOperation parse(Method method, @Nullable Class<?> targetClass, DistributedLock annotation) {
		checkInterceptable(method, targetClass);
		String unsupported = AsyncReturnTypes.unsupported(method, annotation);
		if (unsupported != null) {
			throw invalid(method, unsupported);
		}
		String name = resolve(method, "name", annotation.name());
		if (name.isEmpty()) {
			if (!annotation.name().isEmpty()) {
				throw invalid(method, "name '" + annotation.name() + "' resolved to an empty string");
			}
			name = method.getDeclaringClass().getSimpleName() + "." + method.getName();
		}
		String[] parameterNames = parameterNames(method);
		Expression key = null;
		if (!annotation.key().isBlank()) {
			try {
				key = this.keyEvaluator.parse(annotation.key(), parameterNames);
			}
			catch (IllegalArgumentException ex) {
				throw invalid(method, "key '" + annotation.key() + "' is rejected: " + ex.getMessage(), ex);
			}
		}
		Duration waitTime = duration(method, "waitTime", annotation.waitTime());
		if (waitTime != null && waitTime.compareTo(MAX_WAIT_TIME) > 0) {
			throw invalid(method,
					"waitTime '" + annotation.waitTime() + "' is longer than " + MAX_WAIT_TIME.toHours() + " hours");
		}
		Duration leaseTime = duration(method, "leaseTime", annotation.leaseTime());
		if (leaseTime != null && leaseTime.compareTo(Duration.ofMillis(1)) < 0) {
			throw invalid(method, "leaseTime '" + annotation.leaseTime() + "' must be at least 1ms (leave it empty for"
					+ " an auto-renewed lease)");
		}
		Duration minHoldTime = duration(method, "minHoldTime", annotation.minHoldTime());
		if (minHoldTime != null && leaseTime != null && minHoldTime.compareTo(leaseTime) > 0) {
			throw invalid(method, "minHoldTime '" + annotation.minHoldTime() + "' is longer than leaseTime '"
					+ annotation.leaseTime() + "': the lock would expire before it");
		}
		if (annotation.fair() && this.fairLocksUnsupported != null) {
			throw invalid(method, "fair = true, but " + this.fairLocksUnsupported);
		}
		SharedLockAttributes.check(method, annotation, this.sharedLocksUnsupported);
		return new LockOperation(method, name, key, parameterNames, waitTime, leaseTime,
				(minHoldTime != null) ? minHoldTime : Duration.ZERO, annotation.onFailure(),
				skipValue(method.getReturnType()), annotation.fair(), annotation.mode(), annotation.permits());
	}

	private void checkInterceptable(Method method, @Nullable Class<?> targetClass) {
		if (this.mode == AdviceMode.ASPECTJ) {
			if (!method.isAnnotationPresent(DistributedLock.class)) {
				throw invalid(method, "the annotation is inherited from an interface or an overridden method, and"
						+ " AspectJ matches only annotations on the method that runs, so it would run without the lock;"
						+ " annotate " + method.getDeclaringClass().getSimpleName() + "." + method.getName()
						+ " itself");
			}
			return;
		}
		int modifiers = method.getModifiers();
		if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
			throw invalid(method,
					"the method is "
							+ Modifier.toString(modifiers & (Modifier.PRIVATE | Modifier.STATIC | Modifier.FINAL))
							+ ", so a proxy cannot intercept it and it would run without the lock"
							+ " (AspectJ weaving can: @EnableDistributedLock(mode = AdviceMode.ASPECTJ))");
		}
		if (targetClass != null && Modifier.isFinal(targetClass.getModifiers())
				&& !declaredByInterface(method, targetClass)) {
			throw invalid(method,
					"the class " + targetClass.getSimpleName() + " is final, so a proxy cannot subclass it and the"
							+ " method would run without the lock; make the class non-final (in Kotlin: open, or the"
							+ " kotlin-spring compiler plugin) or use AspectJ weaving:"
							+ " @EnableDistributedLock(mode = AdviceMode.ASPECTJ)");
		}
	}

	/**
	 * Whether an interface proxy could reach the method: a final class can still be
	 * proxied through its interfaces.
	 */
	private static boolean declaredByInterface(Method method, Class<?> targetClass) {
		for (Class<?> type : ClassUtils.getAllInterfacesForClassAsSet(targetClass)) {
			if (ClassUtils.hasMethod(type, method.getName(), method.getParameterTypes())) {
				return true;
			}
		}
		return false;
	}

	private String[] parameterNames(Method method) {
		String[] names = this.parameterNames.getParameterNames(method);
		return (names != null) ? names : new String[0];
	}

	private @Nullable Duration duration(Method method, String attribute, String value) {
		String resolved = resolve(method, attribute, value).trim();
		if (resolved.isEmpty()) {
			return null;
		}
		Duration duration;
		try {
			duration = DurationFormatterUtils.detectAndParse(resolved);
		}
		catch (IllegalArgumentException ex) {
			throw invalid(method, attribute + " '" + value + "' is not a duration (use e.g. 500ms, 5s or PT5S)", ex);
		}
		if (duration.isNegative()) {
			throw invalid(method, attribute + " '" + value + "' must not be negative");
		}
		return duration;
	}

	private String resolve(Method method, String attribute, String value) {
		if (value.contains("#{")) {
			// Spring's embedded value resolver would evaluate it with full SpEL (types,
			// beans, methods).
			throw invalid(method,
					attribute + " '" + value + "' contains a SpEL template (#{...}); only ${...} placeholders"
							+ " are resolved in " + attribute);
		}
		if (this.valueResolver == null || value.isEmpty()) {
			return value;
		}
		try {
			String resolved = this.valueResolver.resolveStringValue(value);
			return (resolved != null) ? resolved : "";
		}
		catch (IllegalArgumentException ex) {
			throw invalid(method, attribute + " '" + value + "' could not be resolved: " + ex.getMessage(), ex);
		}
	}

	/** What a skipped invocation returns: see {@link OnLockFailure#SKIP}. */
	private static @Nullable Object skipValue(Class<?> returnType) {
		if (returnType == Optional.class) {
			return Optional.empty();
		}
		if (returnType == boolean.class) {
			return false;
		}
		if (returnType == char.class) {
			return '\0';
		}
		if (returnType == byte.class) {
			return (byte) 0;
		}
		if (returnType == short.class) {
			return (short) 0;
		}
		if (returnType == int.class) {
			return 0;
		}
		if (returnType == long.class) {
			return 0L;
		}
		if (returnType == float.class) {
			return 0f;
		}
		if (returnType == double.class) {
			return 0d;
		}
		return null;
	}

	static IllegalStateException invalid(Method method, String reason) {
		return invalid(method, reason, null);
	}

	private static IllegalStateException invalid(Method method, String reason, @Nullable Throwable cause) {
		return new IllegalStateException(
				"Invalid @DistributedLock on " + LockOperation.describe(method) + ": " + reason, cause);
	}

}
