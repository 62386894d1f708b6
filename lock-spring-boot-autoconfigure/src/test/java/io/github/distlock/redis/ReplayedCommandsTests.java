package io.github.distlock.redis;

import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lettuce re-sends commands that were written but not answered when it reconnects, so a script
 * may run twice. A replayed acquire or hand-over must not leave a lock that nobody knows it holds.
 */
class ReplayedCommandsTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private LettuceConnectionFactory factory;

	private RedisLockCommands commands;

	private final String key = new LockKeys("distlock:").lockKey("replayed");

	@BeforeEach
	void connect() {
		this.factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis.host(), redis.port()));
		this.factory.afterPropertiesSet();
		this.factory.start();
		this.commands = new RedisLockCommands(new StringRedisTemplate(this.factory), "distlock:released", 60_000);
	}

	@AfterEach
	void disconnect() {
		this.factory.destroy();
	}

	@Test
	void aReplayedAcquireCountsAsAcquiredWithANewerToken() {
		long first = this.commands.acquire(this.key, "owner-a", 30_000);
		long replayed = this.commands.acquire(this.key, "owner-a", 30_000);
		assertThat(first).isPositive();
		assertThat(replayed).isGreaterThan(first);
		assertThat(this.commands.release(this.key, "owner-a")).isTrue();
		assertThat(this.commands.exists(this.key)).isFalse();
	}

	@Test
	void aReplayedAcquireOfAContendedLockIsStillOurs() {
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(this.commands.acquire(this.key, "owner-b", 30_000)).isNegative();
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(redis.command("GET", this.key)).isEqualTo("owner-a+");
	}

	@Test
	void anotherOwnersAcquireIsStillRefused() {
		assertThat(this.commands.acquire(this.key, "owner-a", 30_000)).isPositive();
		assertThat(this.commands.acquire(this.key, "owner-b", 30_000)).isNegative();
		assertThat(this.commands.release(this.key, "owner-b")).isFalse();
		assertThat(redis.command("GET", this.key)).isEqualTo("owner-a+");
	}

	@Test
	void aReplayedHandOverAnswersAsTheHandOverDid() {
		long acquired = this.commands.acquire(this.key, "owner-a", 30_000);
		long handedOver = this.commands.handOver(this.key, "owner-a", "owner-b", 30_000, true);
		long replayed = this.commands.handOver(this.key, "owner-a", "owner-b", 30_000, true);
		assertThat(handedOver).isGreaterThan(acquired);
		assertThat(replayed).isGreaterThan(handedOver);
		assertThat(redis.command("GET", this.key)).isEqualTo("owner-b");
		assertThat(this.commands.handOver(this.key, "owner-a", "owner-c", 30_000, true)).isZero();
	}

}
