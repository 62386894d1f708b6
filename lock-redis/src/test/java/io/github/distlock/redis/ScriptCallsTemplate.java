package io.github.distlock.redis;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A real template that counts the renewals it runs and can hold one renewal thread after
 * Redis answered, to force an interleaving without a debugger. Renewals are the
 * {@code EXPIRE} script run on a {@code distlock-renewal} thread.
 */
final class ScriptCallsTemplate extends StringRedisTemplate {

	/** Owner token of each lock key, from its last successful acquire. */
	final Map<String, String> owners = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> renewals = new ConcurrentHashMap<>();

	private final AtomicReference<Hold> hold = new AtomicReference<>();

	ScriptCallsTemplate(RedisConnectionFactory factory) {
		super(factory);
	}

	/** Every lock script runs through here, as a {@link LockScriptCallback}. */
	@Override
	public <T> T execute(RedisCallback<T> action, boolean exposeConnection, boolean pipeline) {
		T reply = super.execute(action, exposeConnection, pipeline);
		if (!(action instanceof LockScriptCallback lockScript)) {
			return reply;
		}
		RedisScript<Long> script = lockScript.call().script();
		String key = lockScript.call().keys().get(0);
		List<String> args = lockScript.call().args();
		// 0: acquired, its token left for the first read.
		if ((script == LockScripts.ACQUIRE || script == QueueScripts.ACQUIRE_QUEUED) && reply instanceof Long token
				&& token >= 0) {
			this.owners.put(key, args.get(0));
		}
		if (script == LockScripts.EXPIRE && Thread.currentThread().getName().startsWith("distlock-renewal")) {
			this.renewals.computeIfAbsent(key + " " + args.get(1), (k) -> new AtomicInteger()).incrementAndGet();
			Hold armed = this.hold.get();
			if (armed != null && armed.key.equals(key) && this.hold.compareAndSet(armed, null)) {
				armed.returned.countDown();
				try {
					if (!armed.proceed.await(30, TimeUnit.SECONDS)) {
						throw new IllegalStateException("The held renewal was never let go");
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}
		return reply;
	}

	/**
	 * Renewals of {@code key} with a lease of {@code leaseMillis} that Redis answered.
	 */
	int renewals(String key, long leaseMillis) {
		AtomicInteger count = this.renewals.get(key + " " + leaseMillis);
		return (count != null) ? count.get() : 0;
	}

	/**
	 * Holds the next renewal of {@code key} after Redis answered it, until the returned
	 * hold is let go.
	 */
	Hold holdNextRenewal(String key) {
		Hold armed = new Hold(key);
		this.hold.set(armed);
		return armed;
	}

	static final class Hold {

		final String key;

		final CountDownLatch returned = new CountDownLatch(1);

		final CountDownLatch proceed = new CountDownLatch(1);

		Hold(String key) {
			this.key = key;
		}

		void awaitReturned() throws InterruptedException {
			if (!this.returned.await(20, TimeUnit.SECONDS)) {
				throw new AssertionError("No renewal of " + this.key + " within 20s");
			}
		}

		void letGo() {
			this.proceed.countDown();
		}

	}

}
