package io.github.distlock.aspectj;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.distlock.DistributedLock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.aspectj.lang.annotation.SuppressAjWarnings;
import org.aspectj.lang.reflect.MethodSignature;

import org.springframework.util.ClassUtils;

/**
 * Locks every execution of a {@link DistributedLock @DistributedLock} method of the classes it is
 * woven into, at compile time or at load time: calls through {@code this} included, and
 * {@code private}, {@code static} and {@code final} methods too. The logic is that of the proxy
 * mode, {@link io.github.distlock.interceptor.LockAspectSupport}, bound to the application context
 * that chose {@code @EnableDistributedLock(mode = AdviceMode.ASPECTJ)}.
 * <p>
 * AspectJ matches the annotation on the method that runs only: an annotation on an interface
 * method, or on a method that the running one overrides, is not seen (the application context
 * rejects such a bean at startup). The aspect runs outside Spring's transaction and cache
 * aspects, so the lock is acquired before a {@code @Transactional} transaction begins and released
 * after it ended, as in proxy mode.
 * <p>
 * There is one aspect per class loader, and several application contexts in ASPECTJ mode may
 * run in it at once (cached test contexts): a bean's methods are locked through the context that
 * created the bean, so each test locks through its own context whatever the order the contexts
 * started in. An object that is no bean of a running context (made with {@code new}) and a
 * static method are locked through the context started last and not closed yet. Before any
 * context bound the aspect, a woven method runs without it, with a warning (in proxy mode, the
 * proxy still locks calls that go through the bean); once the context of a bean, or the last
 * bound context, has closed, a woven method fails instead of running without its lock.
 */
public aspect DistributedLockAspect {

	declare precedence : DistributedLockAspect, org.springframework.transaction.aspectj..*,
			org.springframework.cache.aspectj..*;

	declare @method : @DistributedLock * *(..) : @WovenByDistributedLockAspect;

	private static final Log logger = LogFactory.getLog(DistributedLockAspect.class);

	private final Object monitor = new Object();

	/** The bound contexts' supports, most recent last; guarded by the monitor. */
	private final List<AspectJLockSupport> bound = new ArrayList<>();

	private volatile AspectJLockSupport current;

	private volatile boolean everBound;

	private final Set<Method> warnedUnbound = ConcurrentHashMap.newKeySet();

	/** The support of each bean the bound contexts created. */
	private final BoundBeans beans = new BoundBeans();

	@SuppressAjWarnings("adviceDidNotMatch")
	Object around() : execution(@DistributedLock * *(..)) {
		Method method = ((MethodSignature) thisJoinPointStaticPart.getSignature()).getMethod();
		Object target = thisJoinPoint.getThis();
		AspectJLockSupport support = (target != null) ? this.beans.supportOf(target) : null;
		if (support == null) {
			support = this.current;
		}
		if (support == null || support.isUnbound()) {
			if (support != null || this.everBound) {
				throw new IllegalStateException(describe(method) + " is not run without its lock: the application"
						+ " context bound to DistributedLockAspect (@EnableDistributedLock(mode = AdviceMode.ASPECTJ))"
						+ " has been closed");
			}
			if (this.warnedUnbound.add(method)) {
				logger.warn(describe(method) + " runs without the lock of DistributedLockAspect: the aspect is woven"
						+ " into it, but no application context chose @EnableDistributedLock(mode = AdviceMode.ASPECTJ)"
						+ " (in proxy mode, the proxy locks the calls that go through the bean)");
			}
			return proceed();
		}
		Class<?> targetClass = (target != null) ? ClassUtils.getUserClass(target) : method.getDeclaringClass();
		try {
			return support.invoke(() -> proceed(), method, targetClass, thisJoinPoint.getArgs());
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			// A checked exception the method declares: AspectJ's around advice cannot declare it.
			throw DistributedLockAspect.<RuntimeException>rethrow(ex);
		}
	}

	/**
	 * Binds an application context: its support locks the woven methods of its beans, and of
	 * objects that are no bean of a bound context, from now on.
	 */
	void bind(AspectJLockSupport support) {
		synchronized (this.monitor) {
			this.bound.add(support);
			this.current = support;
			this.everBound = true;
		}
	}

	/**
	 * Locks the woven methods of {@code bean} through {@code support}, that of the application
	 * context that created it.
	 */
	void register(Object bean, AspectJLockSupport support) {
		this.beans.register(bean, support);
	}

	/**
	 * Unbinds a closing application context: its beans' woven methods fail from now on, and the
	 * context bound before it, if still bound, locks the woven methods of other objects again.
	 */
	void unbind(AspectJLockSupport support) {
		synchronized (this.monitor) {
			support.unbound();
			this.bound.remove(support);
			this.current = this.bound.isEmpty() ? null : this.bound.get(this.bound.size() - 1);
		}
	}

	/**
	 * The support that locks the woven methods of objects that are no bean of a bound context
	 * now.
	 */
	AspectJLockSupport current() {
		return this.current;
	}

	private static String describe(Method method) {
		return method.getDeclaringClass().getName() + "." + method.getName();
	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> RuntimeException rethrow(Throwable ex) throws T {
		throw (T) ex;
	}

}
