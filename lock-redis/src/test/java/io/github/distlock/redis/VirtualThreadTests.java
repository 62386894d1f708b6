package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServer;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * 10,000 virtual threads contend for 100 lock ids, doing blocking Redis work inside: no
 * overlap, no lost update, and no virtual thread pinned its carrier (JFR
 * {@code jdk.VirtualThreadPinned}, every event recorded, whatever its duration).
 * <p>
 * The build targets Java 17, so virtual threads are reached by reflection. Under a JDK
 * older than 21 the test is skipped; the build's {@code virtual-threads} surefire
 * execution runs it on the Temurin 25 JDK (see the module's pom).
 */
class VirtualThreadTests {

	private static final String PINNED = "jdk.VirtualThreadPinned";

	private static RedisServer redis;

	@BeforeAll
	static void startRedis() {
		if (Runtime.version().feature() >= 21) {
			redis = RedisServer.start();
		}
	}

	@AfterAll
	static void stopRedis() {
		if (redis != null) {
			redis.close();
		}
	}

	@Test
	void tenThousandVirtualThreadsOnOneHundredIdsNeverOverlapAndNeverPin() throws Exception {
		assumeThat(Runtime.version().feature())
			.as("Virtual threads need JDK 21+, this is JDK %s (%s); the 'virtual-threads' surefire execution runs"
					+ " this test on /usr/lib/jvm/temurin-25-jdk-amd64 when that JDK is installed", Runtime.version(),
					System.getProperty("java.home"))
			.isGreaterThanOrEqualTo(21);
		int threads = 10_000;
		int ids = 100;
		Queue<RecordedEvent> pinned = new ConcurrentLinkedQueue<>();
		List<LettuceConnectionFactory> factories = new ArrayList<>();
		List<LockEngine> services = new ArrayList<>();
		try (RecordingStream recording = new RecordingStream()) {
			for (int i = 0; i < 3; i++) {
				factories.add(connectionFactory());
			}
			LockEngine[] instances = {
					RedisEngines.blocking(new StringRedisTemplate(factories.get(0)), RedisLockSettings.defaults()),
					RedisEngines.blocking(new StringRedisTemplate(factories.get(1)), RedisLockSettings.defaults()) };
			services.addAll(List.of(instances));
			StringRedisTemplate data = new StringRedisTemplate(factories.get(2));
			// Classes loaded and initialized on first use pin the loading virtual thread
			// (a JVM matter,
			// not ours): a warm-up round loads them before the recording starts.
			contend(instances, data, 200, ids, "warm-up-");
			recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
			recording.onEvent(PINNED, pinned::add);
			recording.startAsync();
			assertThat(contend(instances, data, threads, ids, "vt-")).as("overlaps").isZero();
			for (int id = 0; id < ids; id++) {
				assertThat(data.opsForValue().get("counter:vt-" + id)).as("counter %d", id)
					.isEqualTo(Integer.toString(threads / ids));
			}
			assertThat(redis.keys("distlock:{vt-*}"))
				.allMatch((key) -> key.endsWith(":fence") || key.endsWith(":released"));
			for (LockEngine instance : instances) {
				assertThat(instance.trackedLockCount()).isZero();
			}
			// Proves that the recording sees pinning: blocking in a class initializer
			// still pins.
			ExecutorService canary = newVirtualThreadPerTaskExecutor();
			try {
				canary.submit(PinsItsCarrier::load).get(1, TimeUnit.MINUTES);
			}
			finally {
				canary.shutdown();
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> pinned.stream().anyMatch(VirtualThreadTests::isCanary));
		}
		finally {
			services.forEach(LockEngine::destroy);
			factories.forEach(LettuceConnectionFactory::destroy);
		}
		assertThat(pinned.stream().filter((event) -> !isCanary(event)).map(VirtualThreadTests::describe)).isEmpty();
	}

	/**
	 * Each of {@code threads} virtual threads takes the lock of one of {@code ids} ids
	 * once and, under it, increments a counter in Redis by a read-modify-write that loses
	 * updates unless the lock excludes.
	 * @return how often two holders of one id overlapped
	 */
	private static int contend(LockEngine[] instances, StringRedisTemplate data, int threads, int ids, String idPrefix)
			throws Exception {
		AtomicIntegerArray holders = new AtomicIntegerArray(ids);
		AtomicInteger overlaps = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> tasks = new ArrayList<>(threads);
		ExecutorService executor = newVirtualThreadPerTaskExecutor();
		try {
			for (int i = 0; i < threads; i++) {
				int id = i % ids;
				LockEngine instance = instances[i % instances.length];
				tasks.add(executor.submit(() -> {
					start.await();
					try (LockHandle handle = instance.lock(idPrefix + id, Duration.ofMinutes(2))) {
						if (holders.incrementAndGet(id) != 1) {
							overlaps.incrementAndGet();
						}
						String counter = "counter:" + idPrefix + id;
						String value = data.opsForValue().get(counter);
						data.opsForValue()
							.set(counter, Integer.toString((value != null) ? Integer.parseInt(value) + 1 : 1));
						holders.decrementAndGet(id);
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> task : tasks) {
				task.get(3, TimeUnit.MINUTES);
			}
		}
		finally {
			executor.shutdownNow();
		}
		return overlaps.get();
	}

	/**
	 * A generous command timeout: this test is about exclusion and pinning on a busy
	 * machine, not latency.
	 */
	private static LettuceConnectionFactory connectionFactory() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(redis.host(), redis.port()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(60)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static boolean isCanary(RecordedEvent event) {
		return event.getStackTrace() != null && event.getStackTrace()
			.getFrames()
			.stream()
			.anyMatch((frame) -> frame.getMethod().getType().getName().equals(PinsItsCarrier.class.getName()));
	}

	private static String describe(RecordedEvent event) {
		if (event.getStackTrace() == null) {
			return event.toString();
		}
		return event.getStackTrace()
			.getFrames()
			.stream()
			.map(RecordedFrame::getMethod)
			.map((method) -> method.getType().getName() + "." + method.getName())
			.toList()
			.toString();
	}

	private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
		return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
	}

	/**
	 * Parks while its class is being initialized, which pins a virtual thread even on JDK
	 * 24+.
	 */
	static final class PinsItsCarrier {

		static {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
		}

		static void load() {
		}

	}

}
