package io.github.distlock.redis;

import io.github.distlock.autoconfigure.LineUnderTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mutual exclusion of two application instances on a real Redis Cluster (3 masters, 3
 * replicas), each a Spring context configured the Spring Boot way
 * ({@code spring.data.redis.cluster.nodes}, Lettuce topology refresh) and nothing else: 8
 * threads each lock every one of 1,000 ids spread over all masters, in their own random
 * order. Every id's unprotected counter ends exact, no two holds of an id overlap, and
 * fencing tokens increase per id.
 */
class ClusterMutualExclusionTests {

	private static final int IDS = 1_000;

	private static final int THREADS_PER_INSTANCE = 8;

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, LineUnderTest.LOCKS))
		.withPropertyValues("spring.data.redis.cluster.nodes=" + redis.nodes(), "spring.data.redis.timeout=5s",
				"spring.data.redis.lettuce.cluster.refresh.adaptive=true",
				"spring.data.redis.lettuce.cluster.refresh.period=1s");

	@Test
	void twoInstancesTimesEightThreadsExcludeEachOtherOnEveryId() {
		this.contextRunner.run((first) -> this.contextRunner.run((second) -> {
			assertThat(first.getBean(RedisConnectionFactory.class)).isInstanceOfSatisfying(
					LettuceConnectionFactory.class, (factory) -> assertThat(factory.isClusterAware()).isTrue());
			run(List.of(first.getBean(LockService.class), second.getBean(LockService.class)));
		}));
	}

	private void run(List<LockService> instances) throws Exception {
		RedisCluster cluster = redis.cluster();
		int[] counters = new int[IDS];
		AtomicIntegerArray expected = new AtomicIntegerArray(IDS);
		ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();
		AtomicInteger notAcquired = new AtomicInteger();
		int threads = instances.size() * THREADS_PER_INSTANCE;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> workers = new ArrayList<>();
		long began = System.nanoTime();
		for (int t = 0; t < threads; t++) {
			LockService service = instances.get(t % instances.size());
			String client = "instance" + (t % instances.size()) + "-t" + (t / instances.size());
			workers.add(pool.submit(() -> {
				List<Integer> order = new ArrayList<>();
				for (int i = 0; i < IDS; i++) {
					order.add(i);
				}
				Collections.shuffle(order, ThreadLocalRandom.current());
				start.await();
				for (int i : order) {
					String id = "stock:" + i;
					try (LockHandle lock = service.lock(id, Duration.ofSeconds(30))) {
						long acquired = System.nanoTime();
						int read = counters[i];
						Thread.yield();
						counters[i] = read + 1;
						expected.incrementAndGet(i);
						holds.add(new Hold(client, id, lock.fencingToken(), acquired, System.nanoTime()));
					}
					catch (io.github.distlock.LockNotAcquiredException ex) {
						notAcquired.incrementAndGet();
					}
				}
				return null;
			}));
		}
		start.countDown();
		for (Future<?> worker : workers) {
			worker.get(5, TimeUnit.MINUTES);
		}
		pool.shutdown();
		long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
		int wrong = 0;
		for (int i = 0; i < IDS; i++) {
			if (counters[i] != expected.get(i) || counters[i] != threads) {
				wrong++;
			}
		}
		Map<Integer, Integer> idsPerMaster = new HashMap<>();
		for (int i = 0; i < IDS; i++) {
			idsPerMaster.merge(cluster.masterOf("distlock:{stock:" + i + "}").port(), 1, Integer::sum);
		}
		List<OverlapChecker.Overlap> overlaps = OverlapChecker.overlaps(holds);
		List<OverlapChecker.Overlap> regressions = OverlapChecker.tokenRegressions(holds);
		System.out.println("[cluster-exclusion] instances=" + instances.size() + " threads=" + threads + " ids=" + IDS
				+ " idsPerMaster=" + idsPerMaster.values() + " holds=" + holds.size() + " notAcquired=" + notAcquired
				+ " wrongCounters=" + wrong + " overlaps=" + overlaps.size() + " tokenRegressions=" + regressions.size()
				+ " elapsedMs=" + elapsedMillis);
		assertThat(idsPerMaster).hasSize(3);
		assertThat(notAcquired).hasValue(0);
		assertThat(holds).hasSize(IDS * threads);
		assertThat(wrong).isZero();
		assertThat(overlaps).isEmpty();
		assertThat(regressions).isEmpty();
	}

}
