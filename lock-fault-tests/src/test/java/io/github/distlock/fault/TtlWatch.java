package io.github.distlock.fault;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import io.github.distlock.testsupport.RedisServer;

/**
 * Samples a Redis every few milliseconds, while a test runs, for lock keys without an
 * expiry: a lock key that could outlive every lease. One Lua script per sample lists them
 * atomically.
 */
final class TtlWatch implements AutoCloseable {

	private static final String KEYS_WITHOUT_TTL = """
			local found = {}
			for _, key in ipairs(redis.call('keys', ARGV[1])) do
			  if redis.call('pttl', key) == -1 then table.insert(found, key) end
			end
			return found
			""";

	private final RedisServer redis;

	private final Set<String> keysWithoutTtl = new TreeSet<>();

	private final AtomicLong samples = new AtomicLong();

	private final Thread sampler;

	private volatile boolean stopped;

	private TtlWatch(RedisServer redis) {
		this.redis = redis;
		this.sampler = new Thread(this::sample, "ttl-watch");
		this.sampler.setDaemon(true);
		this.sampler.start();
	}

	static TtlWatch start(RedisServer redis) {
		return new TtlWatch(redis);
	}

	/** Lock keys seen without an expiry so far. */
	List<String> keysWithoutTtl() {
		synchronized (this.keysWithoutTtl) {
			return List.copyOf(this.keysWithoutTtl);
		}
	}

	/** Samples taken so far (while Redis was reachable). */
	long samples() {
		return this.samples.get();
	}

	private void sample() {
		while (!this.stopped) {
			try {
				String found = this.redis.command(Duration.ofSeconds(1), "EVAL", KEYS_WITHOUT_TTL, "0", "distlock:*");
				this.samples.incrementAndGet();
				if (found != null && !found.isEmpty()) {
					synchronized (this.keysWithoutTtl) {
						this.keysWithoutTtl.addAll(Arrays.asList(found.split("\n")));
					}
				}
			}
			catch (RuntimeException ex) {
				// Redis paused, restarting or killed by the test: try again.
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				return;
			}
		}
	}

	@Override
	public void close() {
		this.stopped = true;
		this.sampler.interrupt();
		try {
			this.sampler.join(5_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
