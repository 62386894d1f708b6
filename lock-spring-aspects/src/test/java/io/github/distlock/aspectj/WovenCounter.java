package io.github.distlock.aspectj;

import io.github.distlock.DistributedLock;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Woven at compile time: {@link #increment()} reaches the locked method through {@code this}.
 */
public class WovenCounter extends CounterWork {

	public WovenCounter(StringRedisTemplate redis) {
		super(redis);
	}

	@Override
	public void increment() {
		add();
	}

	@DistributedLock(name = LOCK)
	private void add() {
		addOne();
	}

}
