package io.github.distlock.redis;

import java.time.Duration;
import java.util.List;

import io.github.distlock.store.FairLockStoreContractTests;
import io.github.distlock.store.LockStore;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/**
 * The fair-lock contract on a {@link RedisLockStore} over Lettuce and a real
 * {@code redis-server}. Leases are made to run out with {@code PEXPIRE 1}; queue entries
 * by setting their deadlines (server time in ms) to 0.
 */
class RedisFairLockStoreContractTests extends FairLockStoreContractTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private LettuceConnectionFactory factory;

	private StringRedisTemplate template;

	@Override
	protected LockStore createStore() {
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port()));
		this.factory.afterPropertiesSet();
		this.factory.start();
		this.template = new StringRedisTemplate(this.factory);
		return new RedisLockStore(this.template, RedisLockSettings.defaults());
	}

	@AfterEach
	void disconnect() {
		this.factory.destroy();
	}

	@Override
	protected void letLeaseRunOut(String key) {
		redis.command("PEXPIRE", key, "1");
		await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(redis.command("EXISTS", key)));
	}

	@Override
	protected void letQueueEntriesRunOut(String key, long waitMillis) {
		String waiting = LockKeys.waitingKey(key);
		List<Object> owners = this.template.opsForHash().keys(waiting).stream().map(Object.class::cast).toList();
		for (Object owner : owners) {
			this.template.opsForHash().put(waiting, owner, "0");
		}
	}

}
