package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.distlock.autoconfigure.MaxmemoryPolicyCheck;
import io.github.distlock.LockHandle;
import io.github.distlock.LockService;
import io.github.distlock.autoconfigure.LineUnderTest;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two application instances configured with {@code spring.data.redis.username/password}
 * of a user created with exactly the documented least-privilege ACL: a lock is acquired,
 * a waiter of the other instance subscribes to its release announcement and gets the lock
 * when it is released, the {@code maxmemory-policy} check runs (and is skipped: the ACL
 * grants no {@code CONFIG}), health is UP. Redis denies nothing else ({@code ACL LOG} of
 * every node).
 */
abstract class LeastPrivilegeAclScenario {

	private static final String LOCK_ID = "acl:wait";

	/** The Redis properties of the topology, without the user. */
	abstract List<String> redisProperties();

	/** The nodes the user is created on and whose {@code ACL LOG} is read. */
	abstract List<RedisServer> nodes();

	/** The documented commands this topology needs. */
	abstract List<List<String>> aclCommands();

	/**
	 * How many connections are subscribed where the releases of {@code lockKey} are
	 * announced.
	 */
	abstract long subscribersOf(String lockKey);

	@Test
	void everyBehaviourWorksWithTheReadmesAcl() throws Exception {
		List<List<String>> commands = aclCommands();
		for (RedisServer node : nodes()) {
			ReadmeAcl.create(node, commands);
		}
		List<String> properties = new ArrayList<>(redisProperties());
		properties.addAll(List.of("spring.data.redis.username=" + ReadmeAcl.USER,
				"spring.data.redis.password=" + ReadmeAcl.PASSWORD, "spring.data.redis.timeout=5s"));
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(LineUnderTest.REDIS, LineUnderTest.LOCKS, LineUnderTest.LOCK_HEALTH))
			.withPropertyValues(properties.toArray(String[]::new));
		runner.run((first) -> runner.run((second) -> {
			LockService holder = first.getBean(LockService.class);
			LockService waiter = second.getBean(LockService.class);
			String lockKey = new LockKeys("distlock:").lockKey(LOCK_ID);
			LockHandle held = holder.lock(LOCK_ID, Duration.ZERO);
			assertThat(waiter.isLocked(LOCK_ID)).isTrue();
			ExecutorService pool = Executors.newSingleThreadExecutor();
			try {
				Future<Long> next = pool.submit(() -> {
					try (LockHandle handle = waiter.lock(LOCK_ID, Duration.ofSeconds(30))) {
						return handle.fencingToken();
					}
				});
				await().atMost(Duration.ofSeconds(10)).until(() -> subscribersOf(lockKey) > 0);
				held.close();
				assertThat(next.get(30, TimeUnit.SECONDS)).isGreaterThan(held.fencingToken());
			}
			finally {
				pool.shutdownNow();
			}
			assertThat(holder.isLocked(LOCK_ID)).isFalse();
			assertThat(first.getBean(MaxmemoryPolicyCheck.class).check()).as("CONFIG GET is not granted").isNull();
			var health = LineUnderTest.health(first);
			assertThat(health.status()).as(health.toString()).isEqualTo("UP");
		}));
		List<String> denied = new ArrayList<>();
		for (RedisServer node : nodes()) {
			denied.addAll(ReadmeAcl.denied(node));
		}
		System.out
			.println("[readme-acl] " + getClass().getSimpleName() + ": " + nodes().size() + " nodes, denied " + denied);
		// Only the maxmemory-policy check's CONFIG GET (and, on Redis 6.2 and 7.2+,
		// Lettuce's CLIENT SETINFO at connect, which it ignores) may be denied. Redis 6.2
		// logs the command without its subcommand.
		String configGet = ReadmeAcl.loggedAs(nodes().get(0), "config|get");
		String clientSetinfo = ReadmeAcl.loggedAs(nodes().get(0), "client|setinfo");
		assertThat(denied).contains(configGet)
			.allMatch((object) -> object.equals(configGet) || object.equals(clientSetinfo));
	}

}
