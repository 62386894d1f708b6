package io.github.distlock.redis;

import java.util.Properties;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Warns once the application is ready when Redis may evict lock keys: a
 * {@code maxmemory-policy} other than {@code noeviction}. Lock keys always have a TTL, so
 * the {@code volatile-*} policies evict them too ({@code volatile-ttl} picks them first);
 * an evicted lock key lets a second holder in. Never fatal: where {@code CONFIG GET} is
 * refused (ACLs, managed Redis) or Redis is unreachable, the check is skipped and logged
 * at DEBUG. Runs on its own daemon thread so that a slow Redis does not delay readiness.
 */
public class MaxmemoryPolicyCheck implements ApplicationListener<ApplicationReadyEvent> {

	private static final Log logger = LogFactory.getLog(MaxmemoryPolicyCheck.class);

	private static final String POLICY = "maxmemory-policy";

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
	 * Reads the policy and logs a warning if it can evict lock keys.
	 * @return the policy, or {@code null} if it could not be read
	 */
	public @Nullable String check() {
		String policy;
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			Properties config = connection.serverCommands().getConfig(POLICY);
			policy = (config != null) ? config.getProperty(POLICY) : null;
		}
		catch (RuntimeException ex) {
			if (logger.isDebugEnabled()) {
				logger.debug("Could not read the Redis maxmemory-policy (CONFIG GET refused or Redis unreachable);"
						+ " not checking whether lock keys can be evicted: " + ex);
			}
			return null;
		}
		if (policy != null && !"noeviction".equalsIgnoreCase(policy)) {
			logger.warn("Redis maxmemory-policy is '" + policy + "': when Redis reaches maxmemory it may evict"
					+ " lock keys (they always have a TTL, so volatile-* policies evict them too), and then a"
					+ " second instance can acquire a lock that is still held. Use maxmemory-policy noeviction"
					+ " on the Redis that holds the locks.");
		}
		return policy;
	}

}
