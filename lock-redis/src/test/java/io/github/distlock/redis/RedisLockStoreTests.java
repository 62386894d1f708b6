package io.github.distlock.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.store.Acquired;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStoreContractTests;
import io.github.distlock.store.Released;
import io.github.distlock.store.Unknown;
import io.github.distlock.testsupport.RedisServerExtension;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What the Redis store does beyond the {@link LockStoreContractTests contract}: failures,
 * keys written by hand, its settings, the connection its scripts run on.
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
	void aReleaseReceiptLivesTwiceTheCommandTimeoutAndAReplayWithinItAnswersReleased() {
		// The command timeout is 2 s: receipts live 4 s, not the fencing retention's
		// minute.
		LettuceConnectionFactory factory = factory(redis.port());
		try {
			RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory), RedisLockSettings.defaults());
			String key = store.key("receipt");
			assertThat(store.acquire(key, "owner", 60_000)).isInstanceOf(Acquired.class);
			assertThat(store.release(key, "owner")).isEqualTo(Released.INSTANCE);
			assertThat(Long.parseLong(redis.command("PTTL", LockKeys.receiptKey(key)))).isBetween(1L, 4_000L);
			assertThat(store.release(key, "owner")).isEqualTo(Released.INSTANCE);
			// A late copy of an ended owner's acquire still takes nothing.
			assertThat(store.acquire(key, "owner", 60_000)).isInstanceOf(HeldByOther.class);
			assertThat(store.remainingLeaseMillis(key)).isEqualTo(-1);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void aReleaseReceiptLivesAtMostTheFencingRetention() {
		LettuceConnectionFactory factory = started(
				new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port()),
						LettuceClientConfiguration.builder().commandTimeout(Duration.ofMinutes(5)).build()));
		try {
			RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory),
					RedisLockSettings.defaults().withFencingRetention(Duration.ofSeconds(90)));
			String key = store.key("receipt-capped");
			assertThat(store.acquire(key, "owner", 60_000)).isInstanceOf(Acquired.class);
			assertThat(store.release(key, "owner")).isEqualTo(Released.INSTANCE);
			assertThat(Long.parseLong(redis.command("PTTL", LockKeys.receiptKey(key)))).isBetween(80_000L, 90_000L);
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
	void scriptsRunOnTheFactorysSharedConnectionWithoutAConnectionPerCall() {
		CountingFactory factory = started(new CountingFactory(redis.port()));
		try {
			RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory), RedisLockSettings.defaults());
			String key = store.key("shared");
			cycles(store, key, 3);
			int connectionsAfterFirstCycles = factory.connections.get();
			cycles(store, key, 100);
			assertThat(factory.connections.get()).isEqualTo(connectionsAfterFirstCycles);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void withoutASharedNativeConnectionScriptsRunThroughTheTemplate() {
		CountingFactory factory = new CountingFactory(redis.port());
		factory.setShareNativeConnection(false);
		started(factory);
		try {
			RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory), RedisLockSettings.defaults());
			String key = store.key("dedicated");
			int before = factory.connections.get();
			cycles(store, key, 10);
			// One connection per command: 10 acquires, 10 releases, and the TIME that
			// measures the server's clock for the acquires' deadline (AcquireDeadline).
			assertThat(factory.connections.get() - before).isEqualTo(21);
		}
		finally {
			factory.destroy();
		}
	}

	@Test
	void locksAgainAfterItsConnectionFactoryWasStoppedAndStartedOrReset() {
		// A paused application context stops and restarts its connection factory, which
		// closes the shared connection the scripts ran on and opens another.
		LettuceConnectionFactory factory = factory(redis.port());
		try {
			RedisLockStore store = new RedisLockStore(new StringRedisTemplate(factory), RedisLockSettings.defaults());
			String key = store.key("restarted");
			cycles(store, key, 2);
			factory.stop();
			factory.start();
			cycles(store, key, 2);
			factory.resetConnection();
			cycles(store, key, 2);
		}
		finally {
			factory.destroy();
		}
	}

	private static void cycles(RedisLockStore store, String key, int count) {
		for (int i = 0; i < count; i++) {
			// A fresh owner token each time: one that released is never used again.
			String owner = java.util.UUID.randomUUID().toString();
			assertThat(store.acquire(key, owner, 10_000)).isInstanceOf(Acquired.class);
			assertThat(store.release(key, owner)).isEqualTo(Released.INSTANCE);
		}
	}

	@Test
	void badSettingsAreNamed() {
		StringRedisTemplate template = new StringRedisTemplate();
		assertThatIllegalArgumentException().isThrownBy(() -> new RedisLockStore(template, "distlock:", Duration.ZERO))
			.withMessage("fencingRetention must be at least 1ms, but was 0s");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RedisLockStore(template, "lock{", Duration.ofMinutes(1)))
			.withMessageContaining("distributed-lock.key-prefix must be non-empty and must not contain '{' or '}'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RedisLockStore(null, "distlock:", Duration.ofMinutes(1)))
			.withMessage("redis must not be null");
	}

	private static LettuceConnectionFactory factory(int port) {
		return started(new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), port), client()));
	}

	private static LettuceClientConfiguration client() {
		return LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(2))
			.clientOptions(ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofSeconds(2)).build())
				.build())
			.build();
	}

	private static <F extends LettuceConnectionFactory> F started(F factory) {
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** Counts the connections handed out, to the template or anyone else. */
	private static final class CountingFactory extends LettuceConnectionFactory {

		final AtomicInteger connections = new AtomicInteger();

		CountingFactory(int port) {
			super(new RedisStandaloneConfiguration(redis.host(), port), client());
		}

		@Override
		public RedisConnection getConnection() {
			this.connections.incrementAndGet();
			return super.getConnection();
		}

	}

}
