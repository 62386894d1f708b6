package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 10^6 real acquisitions, 16 threads on two instances over 256 ids: no fencing token is
 * ever handed out twice for one id, each id's tokens increase in acquisition order, and
 * nothing is left behind.
 */
class MillionAcquisitionsTests {

	private static final int IDS = 256;

	private static final int THREADS_PER_INSTANCE = 8;

	private static final int ACQUISITIONS = 1_000_000;

	private static RedisServer redis;

	@BeforeAll
	static void startRedis() {
		redis = RedisServer.start();
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	@Test
	void aMillionAcquisitionsHandOutNoFencingTokenTwice() throws Exception {
		TokenLog[] logs = new TokenLog[IDS];
		for (int i = 0; i < IDS; i++) {
			logs[i] = new TokenLog();
		}
		int threads = 2 * THREADS_PER_INSTANCE;
		int perThread = ACQUISITIONS / threads;
		try (RedisLockClients clients = new RedisLockClients(redis)) {
			LockEngine[] instances = { clients.newService(), clients.newService() };
			ExecutorService pool = Executors.newFixedThreadPool(threads);
			CountDownLatch start = new CountDownLatch(1);
			List<Future<?>> workers = new ArrayList<>();
			try {
				for (int t = 0; t < threads; t++) {
					LockEngine instance = instances[t % 2];
					int offset = t;
					workers.add(pool.submit(() -> {
						start.await();
						for (int i = 0; i < perThread; i++) {
							int id = (offset + i * 7) % IDS;
							try (LockHandle handle = instance.lock("tok-" + id, Duration.ofSeconds(60))) {
								// Appended while the lock is held: the log order is the
								// acquisition order.
								logs[id].append(handle.fencingToken());
							}
						}
						return null;
					}));
				}
				start.countDown();
				for (Future<?> worker : workers) {
					worker.get(10, TimeUnit.MINUTES);
				}
			}
			finally {
				pool.shutdownNow();
			}
			assertThat(instances[0].trackedLockCount()).isZero();
			assertThat(instances[1].trackedLockCount()).isZero();
		}
		long total = 0;
		for (int id = 0; id < IDS; id++) {
			long[] tokens = logs[id].tokens();
			total += tokens.length;
			for (int i = 1; i < tokens.length; i++) {
				if (tokens[i] <= tokens[i - 1]) {
					assertThat(tokens[i]).as("token %d of lock tok-%d", i, id).isGreaterThan(tokens[i - 1]);
				}
			}
		}
		assertThat(total).isEqualTo((long) perThread * threads);
		assertThat(redis.keys("distlock:{tok-*}")).as("lock keys left").isEmpty();
	}

	/** The fencing tokens of one lock id, in the order they were handed out. */
	private static final class TokenLog {

		private long[] tokens = new long[8192];

		private int size;

		synchronized void append(long token) {
			if (this.size == this.tokens.length) {
				this.tokens = java.util.Arrays.copyOf(this.tokens, this.size * 2);
			}
			this.tokens[this.size++] = token;
		}

		synchronized long[] tokens() {
			return java.util.Arrays.copyOf(this.tokens, this.size);
		}

	}

}
