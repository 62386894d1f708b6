package io.github.distlock.autoconfigure;

import java.util.LinkedHashMap;
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
 * On a quorum of independent Redis servers every node is checked: a node that evicts is
 * one a second holder can count on. Never fatal: where {@code CONFIG GET} is refused
 * (ACLs, managed Redis) or Redis is unreachable, that server is skipped and logged at
 * DEBUG. Runs on its own daemon thread so that a slow Redis does not delay readiness.
 */
public class MaxmemoryPolicyCheck implements ApplicationListener<ApplicationReadyEvent> {

	private static final Log logger = LogFactory.getLog(MaxmemoryPolicyCheck.class);

	private static final String POLICY = "maxmemory-policy";

	/** Where the policy of a server that is not a cluster is reported. */
	private static final String SINGLE_SERVER = "";

	/** The servers to check, by the name the warning gives them. */
	private final Map<String, RedisConnectionFactory> servers;

	/**
	 * Checks the Redis (standalone, behind Sentinel, or a Redis Cluster) of
	 * {@code connectionFactory}.
	 * @param connectionFactory the connection factory of the Redis holding the locks
	 */
	public MaxmemoryPolicyCheck(RedisConnectionFactory connectionFactory) {
		this(Map.of(SINGLE_SERVER, connectionFactory));
	}

	/**
	 * Checks each of several independent Redis servers, such as the nodes of a quorum.
	 * @param servers the servers' connection factories by the name the warning gives them
	 * (e.g. their URIs without credentials)
	 */
	public MaxmemoryPolicyCheck(Map<String, RedisConnectionFactory> servers) {
		if (servers == null || servers.isEmpty()) {
			throw new IllegalArgumentException("servers must name at least one Redis, but was " + servers);
		}
		this.servers = new LinkedHashMap<>(servers);
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		Thread thread = new Thread(this::check, "distlock-maxmemory-policy-check");
		thread.setDaemon(true);
		thread.start();
	}

	/**
	 * Reads the policy and logs a warning if it can evict lock keys. On a Redis Cluster
	 * the policy of every master is read (each holds locks of its slots), on a quorum
	 * that of every node, and the warning names those whose policy can evict.
	 * @return the policy; with several servers the first policy that can evict, or
	 * {@code noeviction} when none can; {@code null} if none could be read
	 */
	public @Nullable String check() {
		Map<String, String> policies = new TreeMap<>();
		this.servers.forEach((name, connectionFactory) -> policies.putAll(policies(name, connectionFactory)));
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

	private static Map<String, String> policies(String name, RedisConnectionFactory connectionFactory) {
		try (RedisConnection connection = connectionFactory.getConnection()) {
			return (connection instanceof RedisClusterConnection cluster) ? policiesOfMasters(cluster)
					: policyOf(name, connection.serverCommands().getConfig(POLICY));
		}
		catch (RuntimeException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Could not read the maxmemory-policy of Redis" + (name.isEmpty() ? "" : " " + name)
						+ " (CONFIG GET refused or Redis unreachable); not checking whether it can evict lock keys: "
						+ ex);
			}
			return Map.of();
		}
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
				policies.putAll(policyOf(node.getHost() + ":" + node.getPort(),
						cluster.serverCommands().getConfig(node, POLICY)));
			}
		}
		return policies;
	}

	private static Map<String, String> policyOf(String where, @Nullable Properties config) {
		if (config == null) {
			return Map.of();
		}
		for (String name : config.stringPropertyNames()) {
			// host:port.maxmemory-policy when a cluster connection answers for a node
			if (name.equals(POLICY) || name.endsWith("." + POLICY)) {
				return Map.of(where, config.getProperty(name));
			}
		}
		return Map.of();
	}

}
