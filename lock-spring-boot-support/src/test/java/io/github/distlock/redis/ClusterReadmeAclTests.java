package io.github.distlock.redis;

import java.util.List;

import io.github.distlock.testsupport.RedisClusterExtension;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's least-privilege ACL on a Redis Cluster of 3 masters and 3 replicas: both
 * of its {@code ACL SETUSER} lines, on every node, with Lettuce's topology refresh on as
 * the README's cluster configuration has it.
 */
class ClusterReadmeAclTests extends LeastPrivilegeAclScenario {

	@RegisterExtension
	static final RedisClusterExtension redis = new RedisClusterExtension();

	@Override
	List<String> redisProperties() {
		return List.of("spring.data.redis.cluster.nodes=" + redis.nodes(),
				"spring.data.redis.lettuce.cluster.refresh.adaptive=true",
				"spring.data.redis.lettuce.cluster.refresh.period=1s");
	}

	@Override
	List<RedisServer> nodes() {
		return redis.cluster().servers();
	}

	@Override
	List<List<String>> aclCommands() {
		return ReadmeAcl.commands();
	}

	@Override
	long subscribersOf(String lockKey) {
		// The lock's own shard channel, at the master of its slot.
		RedisServer master = redis.cluster().masterOf(lockKey);
		List<String> reply = List
			.of(master.command("PUBSUB", "SHARDNUMSUB", LockKeys.releaseShardChannel(lockKey)).split("\n"));
		return Long.parseLong(reply.get(1));
	}

}
