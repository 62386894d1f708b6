package io.github.distlock.redis;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import io.github.distlock.autoconfigure.MaxmemoryPolicyCheck;
import io.github.distlock.LockHandle;
import io.github.distlock.actuate.LockHealth;
import io.github.distlock.actuate.LocksEndpoint;
import io.github.distlock.actuate.LocksEndpoint.LockDescriptor;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code maxmemory-policy} check, the health indicator and {@code GET
 * /actuator/locks/{id}} on a real Redis Cluster: the check reads every master and names
 * the one whose policy can evict lock keys; health verifies the lock scripts through the
 * cluster connection; the endpoint finds locks on every master.
 */
@ExtendWith(OutputCaptureExtension.class)
class ClusterObservabilityTests {

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	@AutoClose
	private final RedisLockClients clients = RedisLockClients.onCluster(redis.nodes());

	@Test
	void maxmemoryPolicyIsReadOnEveryMasterAndTheEvictingOneIsNamed(CapturedOutput output) {
		RedisCluster cluster = redis.cluster();
		MaxmemoryPolicyCheck check = new MaxmemoryPolicyCheck(this.clients.newConnectionFactory());
		assertThat(check.check()).isEqualTo("noeviction");
		assertThat(output).doesNotContain("Redis maxmemory-policy is");
		RedisServer evicting = cluster.masters().get(1);
		evicting.command("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
		try {
			assertThat(check.check()).isEqualTo("volatile-lru");
			assertThat(output).contains("Redis maxmemory-policy is 'volatile-lru' on " + evicting.host() + ":"
					+ evicting.port() + " (volatile-lru)");
			for (RedisServer other : cluster.servers()) {
				if (!other.equals(evicting)) {
					assertThat(output).doesNotContain(":" + other.port() + " (");
				}
			}
		}
		finally {
			evicting.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
		}
	}

	@Test
	void healthAndLockLookupWorkOnEveryMaster() {
		RedisCluster cluster = redis.cluster();
		LockEngine holder = this.clients.newService();
		LockEngine observer = this.clients.newService();
		assertThat(LockHealth.check(observer).up()).isTrue();
		LocksEndpoint endpoint = new LocksEndpoint(observer);
		Set<Integer> masters = new HashSet<>();
		for (int i = 0; i < 30; i++) {
			String id = "stock:" + i;
			masters.add(cluster.masterOf(new LockKeys("distlock:").lockKey(id)).port());
			try (LockHandle held = holder.lock(id, Duration.ZERO)) {
				LockDescriptor locked = endpoint.lock(id.split("/"));
				assertThat(locked.locked()).as(id).isTrue();
				assertThat(locked.leaseRemainingMillis()).isPositive();
				assertThat(locked.heldByThisInstance()).isNull();
			}
			assertThat(endpoint.lock(id.split("/")).locked()).as(id).isFalse();
		}
		assertThat(masters).hasSize(3);
	}

}
