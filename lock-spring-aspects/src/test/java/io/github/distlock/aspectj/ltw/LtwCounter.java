package io.github.distlock.aspectj.ltw;

import io.github.distlock.DistributedLock;
import io.github.distlock.aspectj.CounterWork;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Compiled by javac only (the build keeps this package out of compile-time weaving):
 * woven at load time, or not at all. {@link #increment()} reaches the locked method
 * through {@code this}.
 */
public class LtwCounter extends CounterWork {

	public LtwCounter(StringRedisTemplate redis) {
		super(redis);
	}

	@Override
	public void increment() {
		add();
	}

	@DistributedLock(name = LOCK)
	void add() {
		addOne();
	}

}
