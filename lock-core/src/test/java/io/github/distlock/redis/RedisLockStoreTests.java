package io.github.distlock.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;

import io.github.distlock.store.LockStoreContractTests;
import io.github.distlock.store.Unknown;
import io.github.distlock.testsupport.RedisServerExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What the Redis store does beyond the {@link LockStoreContractTests contract}: failures,
 * keys written by hand, its settings.
 */
class RedisLockStoreTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@Test
	void anUnreachableRedisAnswersUnknownAndFailsVerify() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		LettuceConnectionFactory factory = factory(closedPort);
		try {
			RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory), RedisLockSettings.defaults());
			String key = store.key("unreachable");
			assertThat(store.acquire(key, "owner", 1_000)).isInstanceOf(Unknown.class);
			assertThat(store.release(key, "owner")).isInstanceOf(Unknown.class);
			assertThat(store.extend(key, "owner", 1_000)).isInstanceOf(Unknown.class);
			assertThat(store.handOver(key, "owner", "next", 1_000, true)).isInstanceOf(Unknown.class);
			assertThatExceptionOfType(DataAccessException.class).isThrownBy(store::verify);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void aRedisThatCannotWriteForNowAnswersUnknown() {
		LettuceConnectionFactory factory = factory(redis.port());
		try {
			RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory), RedisLockSettings.defaults());
			redis.command("CONFIG", "SET", "maxmemory", "1");
			redis.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
			try {
				assertThat(store.acquire(store.key("full"), "owner", 1_000)).isInstanceOfSatisfying(Unknown.class,
						(unknown) -> assertThat(RedisFailures.withReply(unknown.cause())).contains("OOM"));
			}
			finally {
				redis.command("CONFIG", "SET", "maxmemory", "0");
			}
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void aLockKeyWithoutExpiryIsHeldForever() {
		LettuceConnectionFactory factory = factory(redis.port());
		try {
			RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory), RedisLockSettings.defaults());
			String key = store.key("by-hand");
			redis.command("SET", key, "someone");
			assertThat(store.remainingLeaseMillis(key)).isEqualTo(Long.MAX_VALUE);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void badSettingsAreNamed() {
		StringRedisTemplate template = new StringRedisTemplate();
		assertThatIllegalArgumentException().isThrownBy(() -> new RedisLockStore(template, "distlock:", Duration.ZERO))
			.withMessage("fencingRetention must be at least 1ms, but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RedisLockStore(template, "lock{", Duration.ofMinutes(1)))
			.withMessageContaining("distributed-lock.key-prefix must be non-empty and must not contain '{' or '}'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RedisLockStore(null, "distlock:", Duration.ofMinutes(1)))
			.withMessage("redis must not be null");
	}

	private static LettuceConnectionFactory factory(int port) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(2))
			.clientOptions(ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(2)).build())
				.build())
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(redis.host(), port), client);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
