package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.QuorumLockStore;
import io.github.distlock.redis.RedisLockStore;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * {@code distributed-lock.store=quorum}: the nodes' URIs (credentials, database, both
 * list forms), the startup failures for a bad entry or fewer than three nodes, and that
 * {@code spring.data.redis.*} is not used for the locks. Three real {@code redis-server}
 * processes, one of them requiring a password.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuorumLockStoreAutoConfigurationTests {

	private static RedisServer first;

	private static RedisServer second;

	private static RedisServer secured;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class, LineUnderTest.LOCKS,
				LineUnderTest.LOCK_METRICS, LocksEndpointAutoConfiguration.class, LineUnderTest.LOCK_HEALTH))
		.withPropertyValues("distributed-lock.store=quorum", "spring.data.redis.timeout=2s",
				// Nothing answers there: the locks must not use it.
				"spring.data.redis.host=127.0.0.1", "spring.data.redis.port=1");

	@BeforeAll
	static void startNodes() {
		first = RedisServer.start();
		second = RedisServer.start();
		secured = RedisServer.builder().requirePassword("s3cret:+x").start();
	}

	@AfterAll
	static void stopNodes() {
		for (RedisServer server : new RedisServer[] { first, second, secured }) {
			if (server != null) {
				server.close();
			}
		}
	}

	private static String nodes() {
		return "redis://" + first.host() + ":" + first.port() + ",redis://" + second.host() + ":" + second.port()
				+ "/3,redis://default:s3cret%3A%2Bx@" + secured.host() + ":" + secured.port();
	}

	@Test
	void quorumLocksOnTheNodesOfItsUris() {
		this.contextRunner.withPropertyValues("distributed-lock.quorum.nodes=" + nodes()).run((context) -> {
			assertThat(context).hasSingleBean(QuorumLockStore.class)
				.hasSingleBean(LockEngine.class)
				.doesNotHaveBean(RedisLockStore.class)
				.hasSingleBean(MaxmemoryPolicyCheck.class);
			LockService locks = context.getBean(LockService.class);
			try (LockHandle lock = locks.lock("orders:42", Duration.ofSeconds(5))) {
				assertThat(lock.fencingToken()).isPositive();
				assertThat(first.keys("distlock:*")).contains("distlock:{orders:42}");
				assertThat(secured.keys("distlock:*")).contains("distlock:{orders:42}");
				// The second node's URI names database 3.
				assertThat(second.keys("distlock:*")).doesNotContain("distlock:{orders:42}");
				assertThat(LineUnderTest.health(context).status()).isEqualTo("UP");
			}
			assertThat(locks.isLocked("orders:42")).isFalse();
		});
	}

	@Test
	void maxmemoryPolicyIsCheckedOnEveryNode(CapturedOutput output) {
		second.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
		try {
			this.contextRunner.withPropertyValues("distributed-lock.quorum.nodes=" + nodes()).run((context) -> {
				assertThat(context.getBean(MaxmemoryPolicyCheck.class).check()).isEqualTo("volatile-lru");
				assertThat(output).contains("Redis maxmemory-policy is 'volatile-lru' on redis://" + second.host() + ":"
						+ second.port() + "/3 (volatile-lru)");
			});
		}
		finally {
			second.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
		}
	}

	@Test
	void nodesMayBeIndexed() {
		this.contextRunner
			.withPropertyValues("distributed-lock.quorum.nodes[0]=redis://" + first.host() + ":" + first.port(),
					"distributed-lock.quorum.nodes[1]=redis://" + second.host() + ":" + second.port(),
					"distributed-lock.quorum.nodes[2]=redis://:s3cret%3A%2Bx@" + secured.host() + ":" + secured.port())
			.run((context) -> {
				assertThat(context).hasSingleBean(QuorumLockStore.class);
				context.getBean(LockService.class).runLocked("indexed", Duration.ofSeconds(5), () -> {
				});
			});
	}

	@Test
	void fewerThanThreeNodesFailTheStartupNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("distributed-lock.quorum.nodes=redis://" + first.host() + ":" + first.port()
					+ ",redis://" + second.host() + ":" + second.port())
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("distributed-lock.quorum.nodes must list at least 3")
					.hasMessageContaining("lists 2");
			});
		this.contextRunner.run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.rootCause()
			.hasMessageContaining("distributed-lock.quorum.nodes must list at least 3"));
	}

	@Test
	void aBadUriFailsTheStartupNamingTheEntryWithoutItsPassword() {
		this.contextRunner
			.withPropertyValues("distributed-lock.quorum.nodes=redis://" + first.host() + ":" + first.port()
					+ ",http://user:hunter2@example.com:6379,redis://" + second.host() + ":" + second.port())
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining(
							"distributed-lock.quorum.nodes[1] 'http://user:****@example.com:6379' is not a Redis URI")
					.hasMessageContaining("the scheme must be redis or rediss")
					.hasMessageNotContaining("hunter2");
			});
		this.contextRunner.withPropertyValues("distributed-lock.quorum.nodes=redis://a:1,redis://b:2/x,redis://c:3")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("distributed-lock.quorum.nodes[1] 'redis://b:2/x'")
				.hasMessageContaining("database number"));
	}

	/**
	 * A node whose Lettuce client never finishes shutting down (redis/lettuce#2278: a CI
	 * run hung for good in {@code maxmemoryPolicyIsCheckedOnEveryNode}'s context close)
	 * delays closing by the bound only; the other nodes' factories are closed, and a WARN
	 * names the node.
	 */
	@Test
	void closingWaitsABoundedTimeForANodeWhoseClientNeverShutsDown(CapturedOutput output) {
		CountDownLatch shutdownMayEnd = new CountDownLatch(1);
		List<RedisServer> servers = List.of(first, second, secured);
		List<QuorumNodeUri> uris = new ArrayList<>();
		List<LettuceConnectionFactory> factories = new ArrayList<>();
		for (int i = 0; i < servers.size(); i++) {
			RedisServer server = servers.get(i);
			uris.add(QuorumNodeUri.parse(i, "redis://" + server.host() + ":" + server.port()));
			RedisStandaloneConfiguration node = new RedisStandaloneConfiguration(server.host(), server.port());
			if (server == secured) {
				node.setPassword("s3cret:+x");
			}
			LettuceConnectionFactory factory = (i == 1) ? new LettuceConnectionFactory(node) {

				@Override
				public void destroy() {
					try {
						shutdownMayEnd.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
					super.destroy();
				}

			} : new LettuceConnectionFactory(node);
			factory.afterPropertiesSet();
			factory.start();
			factory.getConnection().close();
			factories.add(factory);
		}
		QuorumLockStoreConfiguration.QuorumConnections connections = new QuorumLockStoreConfiguration.QuorumConnections(
				uris, factories, Duration.ofSeconds(1), Duration.ofMillis(300));
		try {
			assertTimeoutPreemptively(Duration.ofSeconds(10), connections::destroy);
			assertThat(factories.get(0).isRunning()).isFalse();
			assertThat(factories.get(2).isRunning()).isFalse();
			assertThat(output).contains("Closing the connection factory of quorum node redis://" + second.host() + ":"
					+ second.port() + " did not finish within 300 ms");
		}
		finally {
			shutdownMayEnd.countDown();
		}
	}

}
