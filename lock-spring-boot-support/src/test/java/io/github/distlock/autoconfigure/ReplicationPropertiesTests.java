package io.github.distlock.autoconfigure;

import io.github.distlock.LockService;
import io.github.distlock.core.LockEngine;
import io.github.distlock.redis.RedisLockStore;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code distributed-lock.replication.*}: bad values fail the context with a message
 * naming the property. Nothing here talks to Redis: connections are opened lazily.
 */
class ReplicationPropertiesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(LineUnderTest.REDIS, AopAutoConfiguration.class, LineUnderTest.LOCKS));

	@Test
	void offByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(RedisLockStore.class);
			DistributedLockProperties properties = context.getBean(DistributedLockProperties.class);
			assertThat(properties.getReplication().getMinReplicas()).isZero();
			assertThat(properties.getReplication().getTimeout()).hasSeconds(1);
			assertThat(properties.getReplication().isRenewals()).isFalse();
		});
	}

	@Test
	void minReplicasWithATimeoutShorterThanTheLease() {
		this.contextRunner
			.withPropertyValues("distributed-lock.replication.min-replicas=2",
					"distributed-lock.replication.timeout=250ms")
			.run((context) -> assertThat(context).hasSingleBean(LockService.class));
	}

	@Test
	void negativeMinReplicasFail() {
		this.contextRunner.withPropertyValues("distributed-lock.replication.min-replicas=-1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("distributed-lock.replication.min-replicas must not be negative, but was -1"));
	}

	@Test
	void aNegativeTimeoutFails() {
		this.contextRunner.withPropertyValues("distributed-lock.replication.timeout=-1s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessage("distributed-lock.replication.timeout must not be negative, but was -1s"));
	}

	@Test
	void aZeroTimeoutFailsWhenReplicasAreWaitedFor() {
		this.contextRunner
			.withPropertyValues("distributed-lock.replication.min-replicas=1", "distributed-lock.replication.timeout=0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Property distributed-lock.replication.timeout with value '0s' is invalid")
				.hasMessageContaining("at least 1ms when distributed-lock.replication.min-replicas is 1"));
		this.contextRunner.withPropertyValues("distributed-lock.replication.timeout=0")
			.run((context) -> assertThat(context).hasSingleBean(LockService.class));
	}

	@Test
	void aTimeoutAsLongAsTheLeaseFails() {
		this.contextRunner
			.withPropertyValues("distributed-lock.replication.min-replicas=1", "distributed-lock.lease-time=2s",
					"distributed-lock.replication.timeout=2s")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("Property distributed-lock.replication.timeout with value '2s' is invalid")
				.hasMessageContaining("shorter than distributed-lock.lease-time (2s)"));
	}

}
