package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServer;
import io.github.distlock.testsupport.TcpProxy;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.awaitility.Awaitility.await;

/**
 * A copy of an acquire already written that reaches Redis later than the release receipt
 * lives (issue 39, 2), on a master and a replica of its own: with {@code min-replicas=1}
 * the acquire goes out on a dedicated connection and the clean-up release on the shared
 * one, so the acquire's connection can be held back (its TCP segments retransmitted)
 * while the release gets through. A {@link TcpProxy} holds the requests of the acquire's
 * connection until the receipt written by the clean-up (or by the release) expired, 2 s
 * with the 500 ms command timeout, then delivers them.
 * <p>
 * {@code LateAcquireCopyTests} runs its timelines; {@link #run()} is the first of them as
 * one call, for {@code MutantsTests} to run with the defect put back
 * ({@code Mutant.LATE_ACQUIRE_COPY}).
 */
public final class LateCopyScenario implements AutoCloseable {

	static final String LOCK_ID = "late-copy";

	private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	private static final String KEY = "distlock:{" + LOCK_ID + "}";

	private static final String RECEIPT = LockKeys.receiptKey(KEY);

	private static final Pattern EVALSHA_CALLS = Pattern.compile("cmdstat_evalsha:calls=(\\d+)");

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final RedisServer master;

	private final TcpProxy proxy;

	private LateCopyScenario() {
		this.master = closing(RedisServer.start());
		RedisServer replica = closing(RedisServer.builder().replicaOf(this.master).start());
		await().atMost(Duration.ofSeconds(20))
			.until(() -> replica.command("INFO", "replication").contains("master_link_status:up"));
		this.proxy = closing(TcpProxy.to(this.master));
	}

	/**
	 * A master, its replica in sync, and a proxy to the master.
	 * @return the scenario, to close
	 */
	static LateCopyScenario start() {
		return new LateCopyScenario();
	}

	/**
	 * The abandoned acquire: {@code lock(id, 0)} times out with its acquire held back;
	 * the copy, delivered once the receipt expired, must take no free lock.
	 * @return what went wrong, or {@code null} when the copy changed nothing
	 */
	public static @Nullable String run() {
		try (LateCopyScenario scenario = start()) {
			LockEngine instance = scenario.throughTheProxy();
			scenario.holdTheNextAcquire(instance);
			try {
				instance.lock(LOCK_ID, Duration.ZERO).close();
				return "the held-back acquire was answered";
			}
			catch (LockNotAcquiredException expected) {
				// Its acquire unanswered: cleaned up, and the copy still on its way.
			}
			if (!scenario.holdsAnAcquire()) {
				return "no acquire was held back";
			}
			scenario.deliverTheHeldAcquireOnceTheReceiptExpired();
			return scenario.ghostLock();
		}
	}

	/**
	 * An instance with a 30 s lease whose acquisitions wait for one replica, through the
	 * proxy, 500 ms command timeout (receipts live 2 s).
	 */
	LockEngine throughTheProxy() {
		return replicated(this.proxy.port());
	}

	/**
	 * Warms the instance up (script cached, dedicated connection open), then makes the
	 * proxy hold the connection that sends the next acquire.
	 */
	void holdTheNextAcquire(LockEngine instance) {
		instance.lock("warm-up", Duration.ofSeconds(10)).close();
		this.proxy.holdRequestsOfConnectionSending(PreparedScript.of(LockScripts.ACQUIRE).sha1);
	}

	boolean holdsAnAcquire() {
		return this.proxy.holdsRequestsOfAConnection();
	}

	void deliverTheHeldAcquireOnceTheReceiptExpired() {
		await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(this.master.command("EXISTS", RECEIPT)));
		await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(this.master.command("EXISTS", RECEIPT)));
		long scriptsRun = evalshaCalls();
		this.proxy.heal();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.proxy.heldRequestsDelivered() > 0);
		await().atMost(Duration.ofSeconds(10)).until(() -> evalshaCalls() > scriptsRun);
	}

	/**
	 * What the late copy left, once it ran.
	 * @return a description of the ghost lock, or {@code null} when there is none (no
	 * lock key, and another instance acquires at once)
	 */
	@Nullable String ghostLock() {
		if (!"0".equals(this.master.command("EXISTS", KEY))) {
			return "the late copy left the lock key " + KEY + " (ttl " + this.master.command("PTTL", KEY) + " ms)";
		}
		Optional<LockHandle> other = replicated(this.master.port()).tryLock(LOCK_ID, Duration.ZERO, null);
		if (other.isEmpty()) {
			return "another instance was refused the free lock";
		}
		other.get().close();
		return null;
	}

	private long evalshaCalls() {
		Matcher calls = EVALSHA_CALLS.matcher(this.master.command("INFO", "commandstats"));
		return calls.find() ? Long.parseLong(calls.group(1)) : 0;
	}

	private LockEngine replicated(int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(this.master.host(), port),
				LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT).build());
		factory.afterPropertiesSet();
		factory.start();
		closing(factory::destroy);
		LockEngine service = closing(RedisEngines.blocking(new StringRedisTemplate(factory),
				RedisLockSettings.defaults()
					.withLeaseTime(Duration.ofSeconds(30))
					.withReplication(1, Duration.ofSeconds(1))));
		return service;
	}

	private <T extends AutoCloseable> T closing(T closeable) {
		this.closeables.add(closeable);
		return closeable;
	}

	/** Closes what it started, the last first. */
	@Override
	public void close() {
		RuntimeException failure = null;
		for (int i = this.closeables.size() - 1; i >= 0; i--) {
			try {
				this.closeables.get(i).close();
			}
			catch (Exception ex) {
				if (failure == null) {
					failure = new IllegalStateException("closing the late-copy scenario", ex);
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

}
