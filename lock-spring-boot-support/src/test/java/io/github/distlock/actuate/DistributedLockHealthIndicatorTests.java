package io.github.distlock.actuate;

import java.time.Duration;
import java.util.List;

import io.github.distlock.LockHandle;
import io.github.distlock.autoconfigure.LineUnderTest;
import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.RedisEngines;
import io.github.distlock.redis.RedisLockSettings;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Boot line's {@code DistributedLockHealthIndicator} (in
 * {@code io.github.distlock.boot4.actuate} and {@code io.github.distlock.boot3.actuate},
 * reached through {@link LineUnderTest#health(io.github.distlock.LockInspection)}) over
 * {@link LockHealth}, on a real Redis. The instance connects as an ACL user, so that the
 * test can take the lock keys away from it while Redis stays reachable.
 */
class DistributedLockHealthIndicatorTests {

	private RedisServer redis;

	private LettuceConnectionFactory connectionFactory;

	private LockEngine service;

	@BeforeEach
	void setUp() {
		this.redis = RedisServer.start();
		this.redis.command("ACL", "SETUSER", "locker", "on", ">secret", "~*", "&*", "+@all");
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(this.redis.host(), this.redis.port());
		server.setUsername("locker");
		server.setPassword("secret");
		this.connectionFactory = new LettuceConnectionFactory(server,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		this.service = RedisEngines.blocking(new StringRedisTemplate(this.connectionFactory),
				RedisLockSettings.defaults().withLeaseTime(Duration.ofSeconds(15)));
	}

	@AfterEach
	void tearDown() {
		this.service.destroy();
		this.connectionFactory.destroy();
		this.redis.close();
	}

	@Test
	void upWithDetailsWhileRedisRunsTheScripts() {
		try (LockHandle handle = this.service.lock("job", Duration.ZERO)) {
			var result = LineUnderTest.health(this.service);
			assertThat(result.status()).isEqualTo("UP");
			assertThat(result.details()).containsEntry("heldLocks", 1)
				.containsEntry("locksLost", 0L)
				.containsEntry("renewalFailures", 0L)
				.doesNotContainKey("renewalFailing");
		}
	}

	@Test
	void downWhenRedisCannotBeReached() {
		this.redis.stop();
		var result = LineUnderTest.health(this.service);
		assertThat(result.status()).isEqualTo("DOWN");
		assertThat(result.details()).containsKey("error").containsEntry("heldLocks", 0);
	}

	@Test
	void downWhenTheLockScriptsAreRefused() {
		this.redis.command("ACL", "SETUSER", "locker", "-@scripting");
		var result = LineUnderTest.health(this.service);
		assertThat(result.status()).isEqualTo("DOWN");
		assertThat((String) result.details().get("error")).contains("NOPERM");
	}

	@Test
	void downWhileARenewalIsFailingThoughRedisIsReachable() {
		LockHandle handle = this.service.lock("job", Duration.ZERO);
		// The lock key is taken away from this user; the probe's keys (lock and receipt)
		// stay allowed.
		this.redis.command("ACL", "SETUSER", "locker", "resetkeys", "~distlock:{distlock.script-probe}*");
		// Renewal every 5 s fails from now on; the lease lasts 10 s longer than that.
		await().atMost(Duration.ofSeconds(20)).until(this.service::isRenewalFailing);
		var result = LineUnderTest.health(this.service);
		assertThat(result.status()).isEqualTo("DOWN");
		assertThat(result.details()).doesNotContainKey("error")
			.containsEntry("renewalFailing", List.of("job"))
			.containsEntry("heldLocks", 1);
		assertThat((long) result.details().get("renewalFailures")).isPositive();
		this.redis.command("ACL", "SETUSER", "locker", "~*");
		handle.close();
		assertThat(LineUnderTest.health(this.service).status()).isEqualTo("UP");
	}

}
