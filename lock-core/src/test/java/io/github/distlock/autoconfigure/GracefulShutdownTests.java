package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.distlock.DistributedLock;
import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.LockService;
import io.github.distlock.redis.RedisLockClients;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Closing a real application context on a real Redis releases the locks the instance
 * holds, owner-checked, and stops their renewal.
 */
class GracefulShutdownTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@Test
	void closingTheContextReleasesHeldLocksAndStopsRenewal() throws Exception {
		LockHandle othersLock = this.clients.newService().lock("others", Duration.ZERO);
		Set<Thread> renewalThreadsBefore = renewalThreads();
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class,
						DistributedLockAutoConfiguration.class))
				.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
						"spring.data.redis.timeout=2s")
				.withBean(Worker.class)
				.run((context) -> {
					LockHandle handle = context.getBean(LockService.class).lock("report:daily", Duration.ZERO);
					Worker worker = context.getBean(Worker.class);
					Future<?> running = pool.submit(() -> {
						worker.work("a");
						return null;
					});
					assertThat(worker.awaitEntered()).isTrue();
					Set<Thread> ours = renewalThreads();
					ours.removeAll(renewalThreadsBefore);
					assertThat(ours).isNotEmpty();
					assertThat(redis.keys("distlock:{work:a}")).isNotEmpty();

					context.close();

					assertThat(redis.keys("distlock:{report:daily}")).isEmpty();
					assertThat(redis.keys("distlock:{work:a}")).isEmpty();
					assertThat(redis.keys("distlock:{others}")).as("another instance's lock").isNotEmpty();
					assertThat(handle.isHeld()).isFalse();
					assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close)
						.withMessageContaining("shut down");
					worker.finish();
					assertThatExceptionOfType(ExecutionException.class)
						.isThrownBy(() -> running.get(10, TimeUnit.SECONDS))
						.withCauseInstanceOf(LockLostException.class);
					await().atMost(Duration.ofSeconds(10)).until(() -> ours.stream().noneMatch(Thread::isAlive));
				});
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(othersLock.isHeld()).isTrue();
		othersLock.close();
	}

	@Test
	void locksOfALazilyCreatedServiceAreReleasedToo() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, DistributedLockAutoConfiguration.class))
			.withBean(LazyInitializationBeanFactoryPostProcessor.class)
			.withPropertyValues("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port(),
					"spring.data.redis.timeout=2s")
			.run((context) -> {
				LockHandle handle = context.getBean(LockService.class).lock("lazy", Duration.ZERO);
				assertThat(redis.keys("distlock:{lazy}")).isNotEmpty();
				context.close();
				assertThat(redis.keys("distlock:{lazy}")).isEmpty();
				assertThat(handle.isHeld()).isFalse();
			});
	}

	private static Set<Thread> renewalThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("distlock-renewal")
					|| thread.getName().startsWith("distlock-lease-guard"))
			.collect(Collectors.toSet());
	}

	static class Worker {

		private final CountDownLatch entered = new CountDownLatch(1);

		private final CountDownLatch finish = new CountDownLatch(1);

		@DistributedLock(name = "work", key = "#id", waitTime = "0")
		public void work(String id) throws InterruptedException {
			this.entered.countDown();
			this.finish.await(30, TimeUnit.SECONDS);
		}

		// Called through the proxy, whose own fields are not the target's.
		public boolean awaitEntered() throws InterruptedException {
			return this.entered.await(10, TimeUnit.SECONDS);
		}

		public void finish() {
			this.finish.countDown();
		}

	}

}
