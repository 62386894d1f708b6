package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServer;
import io.github.distlock.testsupport.TcpProxy;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/**
 * N real {@code redis-server} processes, each behind its own {@link TcpProxy} (so a node
 * can be black-holed as well as killed, paused or restarted empty), and quorum stores and
 * lock services on them as separate application instances would have them: each with its
 * own connection factories, built as the quorum configuration builds them. Closes
 * everything it started.
 */
final class QuorumNodes implements AutoCloseable {

	static final Duration NODE_TIMEOUT = Duration.ofSeconds(1);

	private final List<RedisServer> servers = new ArrayList<>();

	private final List<TcpProxy> proxies = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private final List<QuorumLockStore> stores = new ArrayList<>();

	private final List<LockEngine> services = new ArrayList<>();

	private final boolean proxied;

	private final Duration nodeTimeout;

	private final Duration commandTimeout;

	/**
	 * @param count how many nodes
	 * @param proxied whether clients reach them through a {@link TcpProxy} each
	 */
	QuorumNodes(int count, boolean proxied) {
		this(count, proxied, NODE_TIMEOUT, NODE_TIMEOUT);
	}

	/**
	 * @param count how many nodes
	 * @param proxied whether clients reach them through a {@link TcpProxy} each
	 * @param nodeTimeout how long the stores' operations wait for a node
	 * @param commandTimeout the node clients' command timeout (the auto-configuration
	 * passes the same as the node timeout; the store's constructor takes them apart)
	 */
	QuorumNodes(int count, boolean proxied, Duration nodeTimeout, Duration commandTimeout) {
		this.proxied = proxied;
		this.nodeTimeout = nodeTimeout;
		this.commandTimeout = commandTimeout;
		try {
			for (int i = 0; i < count; i++) {
				RedisServer server = RedisServer.start();
				this.servers.add(server);
				if (proxied) {
					this.proxies.add(TcpProxy.to(server));
				}
			}
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	int size() {
		return this.servers.size();
	}

	RedisServer server(int index) {
		return this.servers.get(index);
	}

	TcpProxy proxy(int index) {
		return this.proxies.get(index);
	}

	List<RedisServer> servers() {
		return this.servers;
	}

	QuorumLockStore newStore() {
		return newStore(Duration.ofMinutes(1));
	}

	QuorumLockStore newStore(Duration fencingRetention) {
		return newStore(fencingRetention, StringRedisTemplate::new);
	}

	/**
	 * A store whose node templates {@code templates} makes, e.g. one that counts each
	 * node's script replies.
	 */
	QuorumLockStore newStore(Duration fencingRetention,
			Function<LettuceConnectionFactory, StringRedisTemplate> templates) {
		List<QuorumLockStore.Node> nodes = new ArrayList<>();
		for (int i = 0; i < this.servers.size(); i++) {
			String host = this.proxied ? this.proxies.get(i).host() : this.servers.get(i).host();
			int port = this.proxied ? this.proxies.get(i).port() : this.servers.get(i).port();
			LettuceConnectionFactory factory = new LettuceConnectionFactory(
					new RedisStandaloneConfiguration(host, port), client(this.commandTimeout));
			factory.setEagerInitialization(true);
			factory.afterPropertiesSet();
			factory.start();
			this.factories.add(factory);
			nodes.add(new QuorumLockStore.Node("redis://" + host + ":" + port, templates.apply(factory)));
		}
		QuorumLockStore store = new QuorumLockStore(nodes, "distlock:", fencingRetention, this.nodeTimeout);
		this.stores.add(store);
		warmUp(store);
		return store;
	}

	LockEngine newService(Duration leaseTime) {
		return newService(leaseTime, Duration.ofMinutes(1));
	}

	LockEngine newService(Duration leaseTime, Duration fencingRetention) {
		return newService(newStore(fencingRetention), leaseTime);
	}

	/** A lock service on {@code store}, destroyed by {@link #close()}. */
	LockEngine newService(io.github.distlock.store.LockStore store, Duration leaseTime) {
		LockEngine service = new LockEngine(store, leaseTime);
		this.services.add(service);
		return service;
	}

	/** Runs {@code args} on every node that answers; nodes that do not are skipped. */
	void commandOnEvery(String... args) {
		for (RedisServer server : this.servers) {
			server.command(args);
		}
	}

	/**
	 * Marks every node as having kept its data for longer than any fencing retention, as
	 * nodes of a deployment that has run for a while (a node restarted empty loses the
	 * mark).
	 */
	void markEstablished() {
		commandOnEvery("SET", "distlock:quorum-node-since", "1");
	}

	/**
	 * One acquisition and release on a key no test uses, so that loading the scripts and
	 * the first round trips of a new client are not paid by a test's first short lease.
	 */
	private static void warmUp(QuorumLockStore store) {
		String key = store.key("quorum-nodes:warm-up");
		String owner = java.util.UUID.randomUUID().toString();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> store.acquire(key, owner, 10_000) instanceof io.github.distlock.store.Acquired);
		store.release(key, owner);
	}

	private static LettuceClientConfiguration client(Duration commandTimeout) {
		ClientOptions options = ClientOptions.builder()
			.socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).build())
			.timeoutOptions(TimeoutOptions.enabled())
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.build();
		return LettuceClientConfiguration.builder()
			.commandTimeout(commandTimeout)
			.shutdownTimeout(Duration.ZERO)
			.clientOptions(options)
			.build();
	}

	@Override
	public void close() {
		this.services.forEach(LockEngine::destroy);
		this.stores.forEach(QuorumLockStore::close);
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.proxies.forEach(TcpProxy::close);
		for (RedisServer server : this.servers) {
			try {
				server.resume();
			}
			catch (RuntimeException ex) {
				// closed below anyway
			}
			server.close();
		}
		this.services.clear();
		this.stores.clear();
		this.factories.clear();
		this.proxies.clear();
		this.servers.clear();
	}

}
