package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.store.LockStore;
import io.github.distlock.store.SharedLockStoreContractTests;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/**
 * The shared-hold contract on a {@link RedisLockStore} over Lettuce and a real
 * {@code redis-server}: the holds in the key's sorted set, the key marked held shared.
 * Time passes on the server's clock: the test waits (bounded) until it has.
 */
class RedisSharedLockStoreContractTests extends SharedLockStoreContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private LettuceConnectionFactory factory;

	@Override
	protected LockStore createStore() {
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port()));
		this.factory.afterPropertiesSet();
		this.factory.start();
		return new RedisLockStore(new StringRedisTemplate(this.factory), RedisLockSettings.defaults());
	}

	@AfterEach
	void disconnect() {
		this.factory.destroy();
	}

	@Override
	protected void letTimePass(long millis) {
		long until = serverMillis() + millis + 1;
		await().atMost(Duration.ofSeconds(10)).until(() -> serverMillis() > until);
	}

	private static long serverMillis() {
		String[] time = redis.command("TIME").split("\\s+");
		return Long.parseLong(time[0]) * 1000 + Long.parseLong(time[1]) / 1000;
	}

}
