package io.github.distlock.aspectj;

import io.github.distlock.DistributedLock;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Woven at compile time: {@link #increment()} reaches the locked method through
 * {@code this}. The locked method is not private, so that in proxy mode (the control) the
 * context starts and the call through {@code this} runs unlocked.
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
	void add() {
		addOne();
	}

}
