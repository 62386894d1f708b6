package io.github.distlock.redis;

import java.util.List;

import io.github.distlock.testsupport.RedisServer;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's least-privilege ACL on one {@code redis-server}: its first
 * {@code ACL SETUSER} line alone.
 */
class ReadmeAclTests extends LeastPrivilegeAclScenario {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@Override
	List<String> redisProperties() {
		return List.of("spring.data.redis.host=" + redis.host(), "spring.data.redis.port=" + redis.port());
	}

	@Override
	List<RedisServer> nodes() {
		return List.of(redis.server());
	}

	@Override
	List<List<String>> aclCommands() {
		return ReadmeAcl.commands().subList(0, 1);
	}

	@Override
	long subscribersOf(String lockKey) {
		// One channel for every lock; the waiting instance subscribes when it waits.
		List<String> reply = List.of(redis.command("PUBSUB", "NUMSUB", "distlock:released").split("\n"));
		return Long.parseLong(reply.get(1));
	}

}
