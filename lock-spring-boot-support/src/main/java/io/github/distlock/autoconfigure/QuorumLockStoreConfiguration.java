package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.distlock.LockService;
import io.github.distlock.ReactiveLockService;
import io.github.distlock.autoconfigure.DistributedLockProperties.Store;
import io.github.distlock.core.LockEngine;
import io.github.distlock.core.ReactiveLockEngine;
import io.github.distlock.observation.LockAcquireObservationConvention;
import io.github.distlock.observation.LockHoldObservationConvention;
import io.github.distlock.redis.QuorumLockStore;
import io.github.distlock.support.BoundedClose;
import io.github.distlock.support.DurationText;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The locks on a quorum of independent Redis masters
 * ({@code distributed-lock.store=quorum}): a {@link LockEngine} over a
 * {@link QuorumLockStore}, with one Lettuce connection factory per entry of
 * {@code distributed-lock.quorum.nodes}, built as Spring Boot builds its own (command
 * timeout {@code spring.data.redis.timeout}, 1 s when not set; connect timeout
 * {@code spring.data.redis.connect-timeout}, the command timeout when not set; SSL for
 * {@code rediss://}; user, password and database from the URI). Commands to a node that
 * is disconnected fail at once instead of waiting for a reconnect. Spring Boot's own
 * Redis connection is not used for the locks. Fewer than 3 nodes, or an entry that is not
 * a Redis URI, fail the startup naming the property and the entry.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(value = { StringRedisTemplate.class, LettuceConnectionFactory.class },
		name = "io.lettuce.core.RedisClient")
@ConditionalOnLockStore(Store.QUORUM)
class QuorumLockStoreConfiguration {

	/** Command timeout of the nodes when {@code spring.data.redis.timeout} is not set. */
	static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

	@Bean
	QuorumConnections quorumConnections(DistributedLockProperties properties, Environment environment) {
		List<String> entries = properties.getQuorum().getNodes();
		List<QuorumNodeUri> uris = new ArrayList<>();
		for (int i = 0; i < entries.size(); i++) {
			uris.add(QuorumNodeUri.parse(i, entries.get(i)));
		}
		if (uris.size() < 3) {
			throw new IllegalArgumentException(QuorumNodeUri.PROPERTY + " must list at least 3 independent Redis"
					+ " masters for distributed-lock.store=quorum, but lists " + uris.size() + " "
					+ uris.stream().map(QuorumNodeUri::name).toList());
		}
		Binder binder = Binder.get(environment);
		Duration timeout = binder.bind("spring.data.redis.timeout", Duration.class).orElse(DEFAULT_TIMEOUT);
		Duration connectTimeout = binder.bind("spring.data.redis.connect-timeout", Duration.class).orElse(timeout);
		return new QuorumConnections(uris, timeout, connectTimeout);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	QuorumLockStore quorumLockStore(QuorumConnections connections, DistributedLockProperties properties) {
		return new QuorumLockStore(connections.nodes(), properties.getKeyPrefix(), properties.getFencingRetention(),
				connections.timeout);
	}

	/**
	 * The {@code maxmemory-policy} of every node, once the application is ready: a node
	 * that evicts lock keys is one a second holder can count on.
	 */
	@Bean
	@ConditionalOnMissingBean
	MaxmemoryPolicyCheck maxmemoryPolicyCheck(QuorumConnections connections) {
		return new MaxmemoryPolicyCheck(connections.byName());
	}

	@Bean
	@ConditionalOnMissingBean(LockService.class)
	LockEngine lockService(QuorumLockStore store, DistributedLockProperties properties,
			ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<LockAcquireObservationConvention> acquireConvention,
			ObjectProvider<LockHoldObservationConvention> holdConvention) {
		return DistributedLockConfiguration.observed(new LockEngine(store, properties.getLeaseTime()),
				observationRegistry, acquireConvention, holdConvention);
	}

	/**
	 * The locks for reactive code, when Reactor is on the class path, on the same quorum
	 * (each round trip on a thread of the service's own: the quorum's votes block).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "reactor.core.publisher.Mono")
	static class ReactiveLockServiceConfiguration {

		@Bean
		@ConditionalOnMissingBean(ReactiveLockService.class)
		ReactiveLockEngine reactiveLockService(QuorumLockStore store, DistributedLockProperties properties) {
			return new ReactiveLockEngine(store, properties.getLeaseTime());
		}

	}

	/**
	 * The connection factories of the quorum's nodes; closed after the lock service
	 * released its locks (the service depends on the store, the store on this).
	 */
	static final class QuorumConnections implements DisposableBean {

		private static final Log logger = LogFactory.getLog(QuorumConnections.class);

		private final List<QuorumNodeUri> uris;

		private final List<LettuceConnectionFactory> factories;

		final Duration timeout;

		private final Duration closeTimeout;

		QuorumConnections(List<QuorumNodeUri> uris, Duration timeout, Duration connectTimeout) {
			this(uris, started(uris, timeout, connectTimeout), timeout, BoundedClose.DEFAULT_TIMEOUT);
			connect(connectTimeout);
		}

		/**
		 * @param factories the started connection factories of {@code uris}, in order
		 * @param closeTimeout how long {@link #destroy()} waits for them to close
		 */
		QuorumConnections(List<QuorumNodeUri> uris, List<LettuceConnectionFactory> factories, Duration timeout,
				Duration closeTimeout) {
			this.uris = List.copyOf(uris);
			this.factories = List.copyOf(factories);
			this.timeout = timeout;
			this.closeTimeout = closeTimeout;
		}

		private static List<LettuceConnectionFactory> started(List<QuorumNodeUri> uris, Duration timeout,
				Duration connectTimeout) {
			List<LettuceConnectionFactory> factories = new ArrayList<>();
			for (QuorumNodeUri uri : uris) {
				LettuceConnectionFactory factory = new LettuceConnectionFactory(standalone(uri),
						client(uri, timeout, connectTimeout));
				factory.afterPropertiesSet();
				factory.start();
				factories.add(factory);
			}
			return factories;
		}

		/**
		 * Opens every node's connection in parallel, waiting at most
		 * {@code connectTimeout}, so that the first lock operations do not pay for it (a
		 * node's first connection may take longer than its command timeout). A node that
		 * cannot be reached is logged, not fatal: the quorum works without a minority,
		 * and Lettuce connects when it can.
		 */
		private void connect(Duration connectTimeout) {
			List<CompletableFuture<?>> connections = new ArrayList<>();
			for (int i = 0; i < this.factories.size(); i++) {
				LettuceConnectionFactory factory = this.factories.get(i);
				String name = this.uris.get(i).name();
				connections.add(CompletableFuture.runAsync(() -> {
					try {
						factory.getConnection().close();
					}
					catch (RuntimeException ex) {
						logger.warn("Quorum node " + name + " cannot be reached at startup: " + ex);
					}
				}));
			}
			try {
				CompletableFuture.allOf(connections.toArray(CompletableFuture[]::new))
					.get(connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			catch (ExecutionException | TimeoutException ex) {
				logger.warn("Not every quorum node answered within " + DurationText.of(connectTimeout) + " at startup");
			}
		}

		List<QuorumLockStore.Node> nodes() {
			List<QuorumLockStore.Node> nodes = new ArrayList<>();
			for (int i = 0; i < this.uris.size(); i++) {
				nodes.add(new QuorumLockStore.Node(this.uris.get(i).name(),
						new StringRedisTemplate(this.factories.get(i))));
			}
			return nodes;
		}

		List<LettuceConnectionFactory> factories() {
			return this.factories;
		}

		/** The nodes' connection factories by the nodes' names, in the listed order. */
		Map<String, RedisConnectionFactory> byName() {
			Map<String, RedisConnectionFactory> byName = new LinkedHashMap<>();
			for (int i = 0; i < this.uris.size(); i++) {
				byName.put(this.uris.get(i).name(), this.factories.get(i));
			}
			return byName;
		}

		private static RedisStandaloneConfiguration standalone(QuorumNodeUri uri) {
			RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(uri.host(), uri.port());
			configuration.setDatabase(uri.database());
			if (uri.username() != null) {
				configuration.setUsername(uri.username());
			}
			if (uri.password() != null) {
				configuration.setPassword(uri.password());
			}
			return configuration;
		}

		private static LettuceClientConfiguration client(QuorumNodeUri uri, Duration timeout, Duration connectTimeout) {
			ClientOptions options = ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
				.timeoutOptions(TimeoutOptions.enabled())
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
				.build();
			LettuceClientConfiguration.LettuceClientConfigurationBuilder builder = LettuceClientConfiguration.builder()
				.commandTimeout(timeout)
				.shutdownTimeout(Duration.ofMillis(100))
				.clientOptions(options);
			if (uri.ssl()) {
				builder.useSsl();
			}
			return builder.build();
		}

		/**
		 * Closes the nodes' connection factories together, waiting at most
		 * {@link BoundedClose#DEFAULT_TIMEOUT} for them: a Lettuce client whose shutdown
		 * hangs is left behind with a WARN naming its node.
		 */
		@Override
		public void destroy() {
			List<BoundedClose.Closing> closings = new ArrayList<>();
			for (int i = 0; i < this.factories.size(); i++) {
				closings
					.add(new BoundedClose.Closing("the connection factory of quorum node " + this.uris.get(i).name(),
							this.factories.get(i)::destroy));
			}
			BoundedClose.closeAll(closings, this.closeTimeout);
		}

	}

}
