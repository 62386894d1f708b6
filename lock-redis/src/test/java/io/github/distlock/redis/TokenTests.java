package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import io.github.distlock.core.LostLock;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Owner tokens are unique and secret; fencing tokens are unique per lock.
 */
class TokenTests {

	private static final Pattern OWNER_TOKEN = Pattern.compile("[0-9a-f]{" + EngineProbe.OWNER_TOKEN_LENGTH + "}");

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void aMillionOwnerTokensHaveNoDuplicate() {
		int count = 1_000_000;
		Supplier<String> tokens = EngineProbe.newOwnerTokens();
		// Tokens whose first 64 bits differ are distinct: sorting those halves checks
		// 10^6 tokens in 8 MB.
		// (Two equal halves among 10^6 random ones have a chance of 3e-8; it would fail
		// the test.)
		long[] high = new long[count];
		for (int i = 0; i < count; i++) {
			String token = tokens.get();
			if (!OWNER_TOKEN.matcher(token).matches()) {
				assertThat(token).matches(OWNER_TOKEN);
			}
			high[i] = HexFormat.fromHexDigitsToLong(token, 0, 16);
		}
		Arrays.sort(high);
		int duplicates = 0;
		for (int i = 1; i < count; i++) {
			if (high[i] == high[i - 1]) {
				duplicates++;
			}
		}
		assertThat(duplicates).isZero();
	}

	@Test
	void ownerTokensDrawnByManyThreadsAtOnceHaveNoDuplicate() throws Exception {
		// Threads draw from different generators of one source: generators seeded alike
		// would repeat each other's tokens.
		int threads = 16;
		int perThread = 62_500;
		Supplier<String> tokens = EngineProbe.newOwnerTokens();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<long[]>> drawn = new ArrayList<>();
		try {
			for (int t = 0; t < threads; t++) {
				drawn.add(pool.submit(() -> {
					start.await();
					long[] high = new long[perThread];
					for (int i = 0; i < perThread; i++) {
						String token = tokens.get();
						if (!OWNER_TOKEN.matcher(token).matches()) {
							assertThat(token).matches(OWNER_TOKEN);
						}
						high[i] = HexFormat.fromHexDigitsToLong(token, 0, 16);
					}
					return high;
				}));
			}
			start.countDown();
			long[] all = new long[threads * perThread];
			for (int t = 0; t < threads; t++) {
				System.arraycopy(drawn.get(t).get(2, TimeUnit.MINUTES), 0, all, t * perThread, perThread);
			}
			Arrays.sort(all);
			int duplicates = 0;
			for (int i = 1; i < all.length; i++) {
				if (all[i] == all[i - 1]) {
					duplicates++;
				}
			}
			System.out.println(
					"Owner tokens drawn by " + threads + " threads: " + all.length + ", duplicates: " + duplicates);
			assertThat(duplicates).isZero();
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void fencingTokensOfOneLockAreUniqueAndIncreasingAcrossInstancesAndThreads() throws Exception {
		LockEngine[] instances = { this.clients.newService(), this.clients.newService() };
		int threads = 8;
		int acquisitionsPerThread = 250;
		BlockingQueue<long[]> grants = new LinkedBlockingQueue<>();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		Object order = new Object();
		long[] sequence = { 0 };
		try {
			for (int t = 0; t < threads; t++) {
				LockEngine instance = instances[t % instances.length];
				workers.add(pool.submit(() -> {
					start.await();
					for (int i = 0; i < acquisitionsPerThread; i++) {
						try (LockHandle handle = instance.lock("fenced", Duration.ofSeconds(60))) {
							// Recorded under the lock, so the record order is the
							// acquisition order.
							synchronized (order) {
								grants.add(new long[] { sequence[0]++, handle.fencingToken() });
							}
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> worker : workers) {
				worker.get(3, TimeUnit.MINUTES);
			}
		}
		finally {
			pool.shutdownNow();
		}
		List<long[]> inOrder = new ArrayList<>(grants);
		inOrder.sort((a, b) -> Long.compare(a[0], b[0]));
		assertThat(inOrder).hasSize(threads * acquisitionsPerThread);
		for (int i = 1; i < inOrder.size(); i++) {
			assertThat(inOrder.get(i)[1]).as("fencing token of acquisition %d", i).isGreaterThan(inOrder.get(i - 1)[1]);
		}
	}

	@Test
	void ownerTokensAreNeverLoggedAboveDebug() throws Exception {
		LockEngine service = this.clients
			.newService(RedisLockSettings.defaults().withLeaseTime(Duration.ofMillis(900)));
		LockEngine other = this.clients.newService();
		BlockingQueue<LostLock> lost = new LinkedBlockingQueue<>();
		service.setLockLostListener(lost::add);
		Set<String> ownerTokens = new HashSet<>();
		List<ILoggingEvent> events;
		try (CapturedLogs logs = CapturedLogs.all()) {
			// Acquire, contend from another instance, hand over locally, extend, renew,
			// release.
			LockHandle first = service.lock("secret", Duration.ZERO);
			ownerTokens.add(ownerToken("secret"));
			assertThat(other.tryLock("secret", Duration.ofMillis(100), null)).isEmpty();
			ExecutorService pool = Executors.newSingleThreadExecutor();
			try {
				Future<String> next = pool.submit(() -> {
					try (LockHandle handle = service.lock("secret", Duration.ofSeconds(30))) {
						assertThat(handle.extend(Duration.ofSeconds(5))).isTrue();
						return ownerToken("secret");
					}
				});
				first.close();
				ownerTokens.add(next.get(30, TimeUnit.SECONDS));
			}
			finally {
				pool.shutdownNow();
			}
			// A lock lost to another owner: INFO "Lost lock", and the LockLostException
			// of close().
			LockHandle stolen = service.lock("stolen", Duration.ZERO);
			ownerTokens.add(ownerToken("stolen"));
			redis.command("SET", "distlock:{stolen}", "someone-else", "PX", "60000");
			assertThat(lost.poll(30, TimeUnit.SECONDS)).isNotNull();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(stolen::close);
			// A release while Redis does not answer: WARN "Could not release".
			LockHandle unanswered = service.tryLock("unanswered", Duration.ZERO, Duration.ofSeconds(30)).orElseThrow();
			ownerTokens.add(ownerToken("unanswered"));
			redis.server().pause();
			try {
				unanswered.close();
			}
			finally {
				redis.server().resume();
			}
			events = logs.events();
		}
		assertThat(ownerTokens).hasSize(4).allMatch((token) -> OWNER_TOKEN.matcher(token).matches());
		List<String> loud = events.stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(Level.INFO))
			.map(CapturedLogs::fullText)
			.toList();
		assertThat(loud).as("INFO and above")
			.anyMatch((text) -> text.contains("Lost lock 'stolen'"))
			.anyMatch((text) -> text.startsWith("Could not release lock 'unanswered'"));
		for (String text : loud) {
			assertThat(text).doesNotContainPattern(OWNER_TOKEN);
			for (String token : ownerTokens) {
				assertThat(text).doesNotContain(token);
			}
		}
	}

	/** The owner token in a lock key's value (without the contended flag). */
	private static String ownerToken(String lockId) {
		String value = redis.command("GET", "distlock:{" + lockId + "}");
		return value.endsWith("+") ? value.substring(0, value.length() - 1) : value;
	}

}
