package io.github.distlock.aspectj;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * An unprotected read-modify-write of a Redis counter, which two instances lose updates
 * of unless a lock excludes them, and the history of the holds: subclasses call
 * {@link #addOne()} from their locked method, which they reach through {@code this}.
 */
public abstract class CounterWork {

	public static final String COUNTER = "exclusion-counter";

	public static final String LOCK = "counter";

	private final StringRedisTemplate redis;

	private final List<long[]> holds = new CopyOnWriteArrayList<>();

	protected CounterWork(StringRedisTemplate redis) {
		this.redis = redis;
	}

	/** Adds one to the counter, through the subclass's locked method. */
	public abstract void increment();

	/**
	 * Each hold as {fencing token, entered nanos, left nanos}; token -1 without a lock.
	 */
	public List<long[]> holds() {
		return this.holds;
	}

	protected final void addOne() {
		long entered = System.nanoTime();
		long token = LockContext.current().map(LockHandle::fencingToken).orElse(-1L);
		String value = this.redis.opsForValue().get(COUNTER);
		long next = ((value != null) ? Long.parseLong(value) : 0) + 1;
		this.redis.opsForValue().set(COUNTER, Long.toString(next));
		this.holds.add(new long[] { token, entered, System.nanoTime() });
	}

}
