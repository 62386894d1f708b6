package io.github.distlock.redis;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Warns once the application is ready when Redis may evict lock keys: a
 * {@code maxmemory-policy} other than {@code noeviction} (on a Redis Cluster, on any
 * master). Lock keys always have a TTL, so the {@code volatile-*} policies evict them too
 * ({@code volatile-ttl} picks them first); an evicted lock key lets a second holder in.
 * Never fatal: where {@code CONFIG GET} is refused (ACLs, managed Redis) or Redis is
 * unreachable, the check is skipped and logged at DEBUG. Runs on its own daemon thread so
 * that a slow Redis does not delay readiness.
 */
public class MaxmemoryPolicyCheck implements ApplicationListener<ApplicationReadyEvent> {

	private static final Log logger = LogFactory.getLog(MaxmemoryPolicyCheck.class);

	private static final String POLICY = "maxmemory-policy";

	/** Where the policy of a server that is not a cluster is reported. */
	private static final String SINGLE_SERVER = "";

	private final RedisConnectionFactory connectionFactory;

	public MaxmemoryPolicyCheck(RedisConnectionFactory connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		Thread thread = new Thread(this::check, "distlock-maxmemory-policy-check");
		thread.setDaemon(true);
		thread.start();
	}

	/**
	 * Reads the policy and logs a warning if it can evict lock keys. On a Redis Cluster
	 * the policy of every master is read (each holds locks of its slots), and the warning
	 * names the masters whose policy can evict.
	 * @return the policy; on a cluster the first policy that can evict, or
	 * {@code noeviction} when none can; {@code null} if it could not be read
	 */
	public @Nullable String check() {
		Map<String, String> policies;
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			policies = (connection instanceof RedisClusterConnection cluster) ? policiesOfMasters(cluster)
					: policyOf(null, connection.serverCommands().getConfig(POLICY));
		}
		catch (RuntimeException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Could not read the Redis maxmemory-policy (CONFIG GET refused or Redis unreachable);"
						+ " not checking whether lock keys can be evicted: " + ex);
			}
			return null;
		}
		if (policies.isEmpty()) {
			return null;
		}
		Map<String, String> evicting = new TreeMap<>();
		policies.forEach((node, policy) -> {
			if (!"noeviction".equalsIgnoreCase(policy)) {
				evicting.put(node, policy);
			}
		});
		if (evicting.isEmpty()) {
			return policies.values().iterator().next();
		}
		String policy = evicting.values().iterator().next();
		String where = (evicting.size() == 1 && evicting.containsKey(SINGLE_SERVER)) ? "'" + policy + "'"
				: "'" + policy + "' on "
						+ evicting.entrySet()
							.stream()
							.map((entry) -> entry.getKey() + " (" + entry.getValue() + ")")
							.collect(Collectors.joining(", "));
		logger.warn("Redis maxmemory-policy is " + where + ": when Redis reaches maxmemory it may evict"
				+ " lock keys (they always have a TTL, so volatile-* policies evict them too), and then a"
				+ " second instance can acquire a lock that is still held. Use maxmemory-policy noeviction"
				+ " on the Redis that holds the locks" + (evicting.containsKey(SINGLE_SERVER) ? "" : " (every master)")
				+ ".");
		return policy;
	}

	/**
	 * Each master's policy, asked of that master: the cluster-wide {@code CONFIG GET}
	 * answers keys prefixed with {@code host:port.}, which read as one server's answer
	 * would find no policy at all.
	 */
	private static Map<String, String> policiesOfMasters(RedisClusterConnection cluster) {
		Map<String, String> policies = new TreeMap<>();
		for (RedisClusterNode node : cluster.clusterGetNodes()) {
			if (node.isMaster() && !node.isMarkedAsFail() && node.getSlotRange() != null
					&& !node.getSlotRange().getSlots().isEmpty()) {
				policies.putAll(policyOf(node, cluster.serverCommands().getConfig(node, POLICY)));
			}
		}
		return policies;
	}

	private static Map<String, String> policyOf(@Nullable RedisClusterNode node, @Nullable Properties config) {
		if (config == null) {
			return Map.of();
		}
		for (String name : config.stringPropertyNames()) {
			// host:port.maxmemory-policy when a cluster connection answers for a node
			if (name.equals(POLICY) || name.endsWith("." + POLICY)) {
				String where = (node != null) ? node.getHost() + ":" + node.getPort() : SINGLE_SERVER;
				return Map.of(where, config.getProperty(name));
			}
		}
		return Map.of();
	}

}
