package io.github.distlock;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method while holding a Redis lock shared by every instance of the
 * application.
 * <p>
 * The lock id is {@link #name()} or {@code name + ":" + key}, in the same id space as
 * {@link LockService}. Every attribute is parsed and validated when the bean is created,
 * so a bad annotation fails the application context with a message naming the method and
 * the attribute. The lock is acquired before a {@code @Transactional} transaction on the
 * same method begins and released after it commits or rolls back.
 *
 * @see LockService
 * @see LockContext#current()
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

	/**
	 * Static lock name; {@code ${...}} placeholders are resolved. Empty means
	 * {@code <SimpleClassName>.<methodName>} of the declaring class.
	 */
	String name() default "";

	/**
	 * Data-only SpEL over the method arguments ({@code #sku}, {@code #order.id},
	 * {@code #p0}, {@code #a0}, {@code 'a' + #x}); empty means one lock per name. Type
	 * references, constructors, bean references, method calls and assignments are
	 * rejected at startup; an evaluated {@code null} or blank key fails the call.
	 */
	String key() default "";

	/**
	 * How long to wait for the lock: empty means {@code distributed-lock.wait-time},
	 * {@code "0"} tries once without waiting; {@code "500ms"}, {@code "5s"},
	 * {@code "PT5S"} and {@code ${...}} are accepted.
	 */
	String waitTime() default "";

	/**
	 * Empty means an auto-renewed lease (watchdog) while the method runs; otherwise a
	 * fixed lease that is never renewed.
	 */
	String leaseTime() default "";

	/**
	 * Hold the lock at least this long from acquisition (later if the method runs
	 * longer), so that a job triggered on N instances runs once per period.
	 */
	String minHoldTime() default "";

	/**
	 * What happens when the lock cannot be acquired within the wait time.
	 */
	OnLockFailure onFailure() default OnLockFailure.THROW;

	/**
	 * Whether the lock is fair: first come, first served across all instances (see
	 * {@link LockService#fair()}), at a cost in throughput under contention. Needs a
	 * store with fair locks: an application context whose store has none
	 * ({@code distributed-lock.store=quorum}, or
	 * {@code distributed-lock.replication.min-replicas} above 0) fails at startup.
	 * @return whether the lock is fair
	 */
	boolean fair() default false;

	/**
	 * {@link LockMode#READ} for a shared hold (any number of READ holders at once,
	 * excluding WRITE holders; see {@link LockService#read()}), or {@link LockMode#WRITE}
	 * (the default) for an exclusive one. READ cannot be combined with {@link #permits()}
	 * or {@link #fair()}, and needs a store with shared locks (the Redis store without
	 * {@code distributed-lock.replication.min-replicas}, or the in-memory store): other
	 * combinations fail at startup.
	 * @return the mode
	 */
	LockMode mode() default LockMode.WRITE;

	/**
	 * More than 1 makes the lock a semaphore: at most {@code permits} holders of the id
	 * at once, each permit an owned, leased hold (auto-renewed, or the fixed
	 * {@link #leaseTime()}), so the permit of a holder that died comes back when its
	 * lease ends. The number of permits is part of the id's identity: every caller of an
	 * id must ask for the same number (see {@link LockService#permits(int)}). 1 (the
	 * default) is the exclusive lock. Less than 1, or more than 1 with
	 * {@code mode = READ} or {@code fair = true}, fails at startup, as on a store without
	 * shared locks.
	 * @return the number of permits
	 */
	int permits() default 1;

}
