package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockContext;
import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.autoconfigure.LineUnderTest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @DistributedLock(fair = true)}: acquired through the service's fair view, in
 * arrival order; refused at startup, naming the method, the attribute and the property,
 * where the store has no fair locks.
 */
class FairAnnotationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, AopAutoConfiguration.class,
				LineUnderTest.LOCKS));

	@Test
	void aFairAnnotatedMethodGetsTheLockInArrivalOrder() {
		this.contextRunner.withPropertyValues("distributed-lock.store=in-memory")
			.withBean(FairJob.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				FairJob job = context.getBean(FairJob.class);
				LockService locks = context.getBean(LockService.class);
				int waiters = 5;
				List<Thread> threads = new ArrayList<>();
				try (LockHandle held = locks.fair().lock("report", Duration.ofSeconds(10))) {
					for (int i = 0; i < waiters; i++) {
						int waiter = i;
						Thread thread = new Thread(() -> job.run(waiter));
						thread.start();
						threads.add(thread);
						// Parked: queued in the store by its first attempt, before the
						// next one asks.
						await().atMost(Duration.ofSeconds(10))
							.until(() -> thread.getState() == Thread.State.TIMED_WAITING);
					}
				}
				for (Thread thread : threads) {
					thread.join(TimeUnit.SECONDS.toMillis(30));
					assertThat(thread.isAlive()).isFalse();
				}
				System.out.println("[fair-annotation] order of " + waiters + " annotated calls: " + job.order());
				assertThat(job.order()).containsExactly(0, 1, 2, 3, 4);
				assertThat(job.tokensIncreasing()).isTrue();
			});
	}

	@Test
	void aFairAnnotationFailsTheContextWhenReplicasAreWaitedFor() {
		this.contextRunner
			.withPropertyValues("distributed-lock.store=redis", "distributed-lock.replication.min-replicas=1")
			.withBean(FairJob.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootMessage(context.getStartupFailure()))
					.startsWith("Invalid @DistributedLock on " + FairJob.class.getName() + ".run(int): fair = true, but"
							+ " distributed-lock.replication.min-replicas=1 has no fair locks");
			});
	}

	@Test
	void aFairAnnotationFailsTheContextOnTheQuorumStore() {
		this.contextRunner.withPropertyValues("distributed-lock.store=quorum")
			.withBean(FairJob.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(rootMessage(context.getStartupFailure())).contains("fair = true, but")
					.contains("distributed-lock.store=quorum has no fair locks");
			});
	}

	private static String rootMessage(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && !cause.getMessage().startsWith("Invalid @DistributedLock")) {
			cause = cause.getCause();
		}
		return cause.getMessage();
	}

	static class FairJob {

		final List<Integer> order = Collections.synchronizedList(new ArrayList<>());

		volatile long lastToken;

		volatile boolean tokensIncreasing = true;

		@DistributedLock(name = "report", fair = true, waitTime = "30s")
		public void run(int waiter) {
			this.order.add(waiter);
			long token = LockContext.current().orElseThrow().fencingToken();
			if (token <= this.lastToken) {
				this.tokensIncreasing = false;
			}
			this.lastToken = token;
		}

		// Read through the proxy: its own fields are not the bean's.
		public List<Integer> order() {
			return this.order;
		}

		public boolean tokensIncreasing() {
			return this.tokensIncreasing;
		}

	}

}
