package io.github.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.github.distlock.LockService;
import io.github.distlock.boot4.autoconfigure.DistributedLockAutoConfiguration;
import io.github.distlock.testsupport.RedisCluster;
import io.github.distlock.testsupport.RedisServer;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Starts distlock the way an application gets it: Boot's Redis auto-configuration plus
 * ours, with a {@link LockedActions} bean to proxy. One context is one application
 * instance.
 */
final class DistlockApplications {

	static final String QUORUM_KEY_PREFIX = "distlock-quorum:";

	private DistlockApplications() {
	}

	/** An instance talking to {@code redis}, with the starter's defaults. */
	static ConfigurableApplicationContext onRedis(RedisServer redis, Duration waitTime) {
		List<String> properties = new ArrayList<>(common(waitTime));
		properties.add("spring.data.redis.host=" + redis.host());
		properties.add("spring.data.redis.port=" + redis.port());
		return start(OnRedis.class, properties);
	}

	/**
	 * An instance on a Redis Cluster, configured the Boot way by
	 * {@code spring.data.redis.cluster.nodes} alone.
	 */
	static ConfigurableApplicationContext onCluster(RedisCluster cluster, Duration waitTime) {
		return onCluster(cluster, waitTime, 0);
	}

	/**
	 * An instance on a Redis Cluster whose acquisitions and hand-overs wait for
	 * {@code minReplicas} replica acknowledgements
	 * ({@code distributed-lock.replication.min-replicas}); 0 is the default, off.
	 */
	static ConfigurableApplicationContext onCluster(RedisCluster cluster, Duration waitTime, int minReplicas) {
		List<String> properties = new ArrayList<>(common(waitTime));
		properties.add("spring.data.redis.cluster.nodes=" + cluster.nodes());
		if (minReplicas > 0) {
			properties.add("distributed-lock.replication.min-replicas=" + minReplicas);
		}
		return start(OnRedis.class, properties);
	}

	/**
	 * An instance on the quorum store ({@code distributed-lock.store=quorum}) over
	 * {@code nodes}; Boot's own Redis connection is not configured, the store does not
	 * use it.
	 */
	static ConfigurableApplicationContext onQuorum(List<RedisServer> nodes, Duration waitTime) {
		List<String> properties = new ArrayList<>(common(waitTime));
		properties.add("distributed-lock.store=quorum");
		properties.add("distributed-lock.key-prefix=" + QUORUM_KEY_PREFIX);
		properties.add("distributed-lock.quorum.nodes="
				+ nodes.stream().map(RedisServer::uri).collect(Collectors.joining(",")));
		return start(OnQuorum.class, properties);
	}

	/**
	 * An instance whose {@link LockService} is {@link InMemoryLockService}: the
	 * interception runs exactly as in production, but the lock costs next to nothing, so
	 * what remains is the cost of the proxy itself.
	 */
	static ConfigurableApplicationContext inMemory(Duration waitTime) {
		return start(InMemory.class, common(waitTime));
	}

	/**
	 * The wait time, and Lettuce's command timeout at Redisson's default (3 s), as
	 * docs/operations.md advises setting one (a release's receipt lives twice it).
	 */
	private static List<String> common(Duration waitTime) {
		return List.of("benchmark.wait-time=" + waitTime.toMillis() + "ms", "logging.level.root=warn",
				"spring.data.redis.timeout=3s");
	}

	private static ConfigurableApplicationContext start(Class<?> source, List<String> properties) {
		return new SpringApplicationBuilder(source).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.registerShutdownHook(false)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class OnRedis {

		@Bean
		LockedActions lockedActions() {
			return new LockedActions();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DistributedLockAutoConfiguration.class)
	static class OnQuorum {

		@Bean
		LockedActions lockedActions() {
			return new LockedActions();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DistributedLockAutoConfiguration.class)
	static class InMemory {

		@Bean
		LockService lockService() {
			return new InMemoryLockService();
		}

		@Bean
		LockedActions lockedActions() {
			return new LockedActions();
		}

	}

}
