package io.github.distlock.redis;

import java.time.Duration;

import io.github.distlock.store.LockStore;
import io.github.distlock.store.LockStoreContractTests;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/**
 * The {@link LockStore} contract on a {@link RedisLockStore} over Lettuce and a real
 * {@code redis-server}. Leases and fencing keys are made to run out with
 * {@code PEXPIRE 1}, and the tests wait (bounded) until Redis has expired them.
 */
class RedisLockStoreContractTests extends LockStoreContractTests {

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
	protected void letLeaseRunOut(String key) {
		expireNow(key);
	}

	@Override
	protected void forgetKey(String key) {
		expireNow(key);
		expireNow(LockKeys.fenceKey(key));
	}

	private static void expireNow(String key) {
		redis.command("PEXPIRE", key, "1");
		await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(redis.command("EXISTS", key)));
	}

}
