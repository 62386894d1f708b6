package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.Optional;
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
import io.github.distlock.LockNotAcquiredException;
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
				.withConfiguration(
						AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class, LineUnderTest.LOCKS))
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
			.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, LineUnderTest.LOCKS))
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

	@Test
	void closingTheContextWhileItsThreadsWaitLeavesNothingQueuedBehind() throws Exception {
		closeWhileAThreadWaits(false);
	}

	@Test
	void closingTheContextWhileItsFairThreadsWaitLeavesNothingQueuedBehind() throws Exception {
		closeWhileAThreadWaits(true);
	}

	/**
	 * A rolling restart: the context of one instance closes while one of its threads
	 * waits, queued in Redis, for a lock another instance holds. The waiter must leave
	 * the queue as the context closes, while the connection factory still runs; otherwise
	 * the holder's release grants the lock to the waiter that is gone, and nobody can
	 * take it for the grant's lease (failed before the fix: the queue entry was left
	 * behind, the third instance's immediate attempt was refused).
	 */
	private void closeWhileAThreadWaits(boolean fair) throws Exception {
		LockService holding = this.clients.newService();
		LockService third = this.clients.newService();
		String lockId = fair ? "restart:fair" : "restart:default";
		String waitingKey = "distlock:{" + lockId + "}:waiting";
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			for (int round = 0; round < 3; round++) {
				LockHandle held = holding.lock(lockId, Duration.ZERO);
				new ApplicationContextRunner()
					.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, LineUnderTest.LOCKS))
					.withPropertyValues("spring.data.redis.host=" + redis.host(),
							"spring.data.redis.port=" + redis.port(), "spring.data.redis.timeout=2s")
					.run((context) -> {
						LockService service = context.getBean(LockService.class);
						LockService waiting = fair ? service.fair() : service;
						Future<?> waiter = pool.submit(() -> waiting.tryLock(lockId, Duration.ofSeconds(60), null));
						await().atMost(Duration.ofSeconds(10))
							.until(() -> "1".equals(redis.command("HLEN", waitingKey)));
						context.close();
						assertThatExceptionOfType(ExecutionException.class)
							.isThrownBy(() -> waiter.get(10, TimeUnit.SECONDS))
							.withCauseInstanceOf(LockNotAcquiredException.class)
							.withMessageContaining("shut down");
					});
				assertThat(redis.command("HLEN", waitingKey)).as("queue entries left by the closed instance")
					.isEqualTo("0");
				held.close();
				Optional<LockHandle> next = third.tryLock(lockId, Duration.ZERO, null);
				assertThat(next).as("the released lock, taken at once by a third instance").isPresent();
				next.get().close();
			}
		}
		finally {
			pool.shutdownNow();
		}
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
