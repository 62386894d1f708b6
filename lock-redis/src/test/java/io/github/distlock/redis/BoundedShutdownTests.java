package io.github.distlock.redis;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import io.github.distlock.testsupport.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Closing the connections the Redis store opened itself (the release subscription, the
 * replica-acknowledged writes' connections) waits a bounded time when a close never
 * completes, as a Lettuce shutdown that hangs (redis/lettuce#2278): real Lettuce
 * connections to a real {@code redis-server}, whose {@code close()} first waits for a
 * latch that only the test's clean-up counts down.
 */
class BoundedShutdownTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private static final Duration BOUND = Duration.ofMillis(300);

	/** Far above the bound: only a close that waits for the hanging one reaches it. */
	private static final Duration NEVER = Duration.ofSeconds(10);

	private final CountDownLatch closeMayEnd = new CountDownLatch(1);

	@AfterEach
	void letTheClosesEnd() {
		this.closeMayEnd.countDown();
	}

	@Test
	void aReleaseSubscriptionWhoseConnectionNeverClosesIsLeftBehindAfterTheBound() {
		HangingCloseFactory factory = new HangingCloseFactory();
		factory.afterPropertiesSet();
		factory.start();
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			ReleaseSubscription subscription = new ReleaseSubscription(factory, "distlock:released", (key) -> {
			}, BOUND);
			assertThat(subscription.ensureActive(System.nanoTime() + TimeUnit.SECONDS.toNanos(10))).isTrue();
			assertTimeoutPreemptively(NEVER, subscription::close);
			assertThat(logs.atLeast(Level.WARN, "io.github.distlock").stream().map(CapturedLogs::fullText))
				.singleElement()
				.asString()
				.startsWith("Closing the release subscription did not finish within 300 ms");
		}
		finally {
			this.closeMayEnd.countDown();
			factory.destroy();
		}
	}

	@Test
	void replicaAcknowledgedWritesConnectionsThatNeverCloseAreLeftBehindAfterTheBound() {
		RedisClient client = RedisClient.create(redis.server().uri());
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			DedicatedConnectionPool pool = new DedicatedConnectionPool(
					() -> new DedicatedConnection.Standalone(hangingOnClose(client.connect())), Duration.ofMinutes(1),
					BOUND);
			DedicatedConnection first = pool.borrow();
			DedicatedConnection second = pool.borrow();
			pool.giveBack(first, true);
			pool.giveBack(second, true);
			assertTimeoutPreemptively(NEVER, pool::close);
			assertThat(logs.atLeast(Level.WARN, "io.github.distlock").stream().map(CapturedLogs::fullText))
				.singleElement()
				.asString()
				.startsWith("Closing an idle connection of replica-acknowledged lock writes (2 of them) did not"
						+ " finish within 300 ms");
		}
		finally {
			this.closeMayEnd.countDown();
			client.shutdown();
		}
	}

	/** {@code connection}, whose {@code close()} first waits for the test to end. */
	@SuppressWarnings("unchecked")
	private StatefulRedisConnection<String, String> hangingOnClose(StatefulRedisConnection<String, String> connection) {
		return (StatefulRedisConnection<String, String>) Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] { StatefulRedisConnection.class }, (proxy, method, args) -> {
					if (method.getName().equals("close")) {
						awaitTheEnd();
					}
					return invoke(method, connection, args);
				});
	}

	private void awaitTheEnd() throws InterruptedException {
		this.closeMayEnd.await();
	}

	private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * A Lettuce connection factory whose connections' {@code close()} first waits for the
	 * test to end.
	 */
	private final class HangingCloseFactory extends LettuceConnectionFactory {

		HangingCloseFactory() {
			super(new RedisStandaloneConfiguration(redis.host(), redis.port()),
					LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		}

		@Override
		public RedisConnection getConnection() {
			RedisConnection connection = super.getConnection();
			return (RedisConnection) Proxy.newProxyInstance(getClass().getClassLoader(),
					new Class<?>[] { RedisConnection.class }, (proxy, method, args) -> {
						if (method.getName().equals("close")) {
							awaitTheEnd();
						}
						return invoke(method, connection, args);
					});
		}

	}

}
