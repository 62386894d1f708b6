package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link MaxmemoryPolicyCheck} against real Redis servers with different policies and
 * ACLs.
 */
@ExtendWith(OutputCaptureExtension.class)
class MaxmemoryPolicyCheckTests {

	private static final String WARNING = "Redis maxmemory-policy is";

	@Test
	void warnsWhenRedisMayEvictLockKeys(CapturedOutput output) {
		try (RedisServer redis = RedisServer.builder().arg("maxmemory-policy", "allkeys-lru").start()) {
			assertThat(check(redis, null, null)).isEqualTo("allkeys-lru");
		}
		assertThat(output).contains("WARN").contains(WARNING + " 'allkeys-lru'").contains("noeviction");
	}

	@Test
	void volatilePoliciesEvictLockKeysTooBecauseTheyHaveATtl(CapturedOutput output) {
		try (RedisServer redis = RedisServer.builder().arg("maxmemory-policy", "volatile-ttl").start()) {
			assertThat(check(redis, null, null)).isEqualTo("volatile-ttl");
		}
		assertThat(output).contains(WARNING + " 'volatile-ttl'");
	}

	@Test
	void quietWithNoeviction(CapturedOutput output) {
		try (RedisServer redis = RedisServer.builder().arg("maxmemory-policy", "noeviction").start()) {
			assertThat(check(redis, null, null)).isEqualTo("noeviction");
		}
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void skippedQuietlyWhenConfigIsRefused(CapturedOutput output) {
		try (RedisServer redis = RedisServer.builder().arg("maxmemory-policy", "allkeys-lru").start()) {
			redis.command("ACL", "SETUSER", "locker", "on", ">secret", "~*", "&*", "+@all", "-config");
			assertThat(check(redis, "locker", "secret")).isNull();
		}
		assertThat(output).doesNotContain(WARNING).doesNotContain("WARN").doesNotContain("ERROR");
	}

	@Test
	void skippedQuietlyWhenRedisIsUnreachable(CapturedOutput output) {
		RedisServer redis = RedisServer.builder().arg("maxmemory-policy", "allkeys-lru").start();
		redis.close();
		assertThat(check(redis, null, null)).isNull();
		assertThat(output).doesNotContain(WARNING).doesNotContain("WARN").doesNotContain("ERROR");
	}

	@Test
	void runsOffTheMainThreadOnceTheApplicationIsReady(CapturedOutput output) {
		try (RedisServer redis = RedisServer.builder().arg("maxmemory-policy", "allkeys-random").start();
				GenericApplicationContext context = new GenericApplicationContext()) {
			LettuceConnectionFactory factory = connectionFactory(redis, null, null);
			try {
				new MaxmemoryPolicyCheck(factory).onApplicationEvent(
						new ApplicationReadyEvent(new SpringApplication(), new String[0], context, Duration.ZERO));
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(output).contains(WARNING + " 'allkeys-random'")
						.contains("distlock-maxmemory-policy-check"));
			}
			finally {
				factory.destroy();
			}
		}
	}

	@Test
	void checksEveryNodeOfAQuorumAndNamesThoseThatMayEvict(CapturedOutput output) {
		RedisServer unreachable = RedisServer.builder().arg("maxmemory-policy", "allkeys-lru").start();
		unreachable.close();
		try (RedisServer quiet = RedisServer.builder().arg("maxmemory-policy", "noeviction").start();
				RedisServer lru = RedisServer.builder().arg("maxmemory-policy", "allkeys-lru").start();
				RedisServer ttl = RedisServer.builder().arg("maxmemory-policy", "volatile-ttl").start()) {
			Map<String, RedisServer> nodes = new LinkedHashMap<>();
			nodes.put("node-a", quiet);
			nodes.put("node-b", lru);
			nodes.put("node-c", ttl);
			nodes.put("node-d", unreachable);
			assertThat(checkEach(nodes)).isEqualTo("allkeys-lru");
		}
		assertThat(output).contains("WARN")
			.contains(WARNING + " 'allkeys-lru' on node-b (allkeys-lru), node-c (volatile-ttl)")
			.doesNotContain("node-a (")
			.doesNotContain("node-d (");
	}

	@Test
	void quietWhenEveryNodeOfAQuorumHasNoeviction(CapturedOutput output) {
		try (RedisServer one = RedisServer.builder().arg("maxmemory-policy", "noeviction").start();
				RedisServer two = RedisServer.builder().arg("maxmemory-policy", "noeviction").start();
				RedisServer three = RedisServer.builder().arg("maxmemory-policy", "noeviction").start()) {
			Map<String, RedisServer> nodes = new LinkedHashMap<>();
			nodes.put("node-a", one);
			nodes.put("node-b", two);
			nodes.put("node-c", three);
			assertThat(checkEach(nodes)).isEqualTo("noeviction");
		}
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void rejectsNoServers() {
		assertThatIllegalArgumentException().isThrownBy(() -> new MaxmemoryPolicyCheck(Map.of()))
			.withMessageContaining("servers must name at least one Redis");
	}

	private static String checkEach(Map<String, RedisServer> nodes) {
		Map<String, RedisConnectionFactory> factories = new LinkedHashMap<>();
		try {
			nodes.forEach((name, server) -> factories.put(name, connectionFactory(server, null, null)));
			return new MaxmemoryPolicyCheck(factories).check();
		}
		finally {
			factories.values().forEach((factory) -> ((LettuceConnectionFactory) factory).destroy());
		}
	}

	private static String check(RedisServer redis, String username, String password) {
		LettuceConnectionFactory factory = connectionFactory(redis, username, password);
		try {
			return new MaxmemoryPolicyCheck(factory).check();
		}
		finally {
			factory.destroy();
		}
	}

	private static LettuceConnectionFactory connectionFactory(RedisServer redis, String username, String password) {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.host(), redis.port());
		server.setUsername(username);
		if (password != null) {
			server.setPassword(password);
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(server,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
