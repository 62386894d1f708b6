package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.distlock.LockHandle;
import io.github.distlock.LockNotAcquiredException;
import io.github.distlock.testsupport.RedisServer;
import io.github.distlock.testsupport.TcpProxy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A copy of an acquire already written that reaches Redis later than the release receipt
 * lives (issue 39, 2): with {@code min-replicas=1} the acquire goes out on a dedicated
 * connection and the clean-up release on the shared one, so the acquire's connection can
 * be held back (its TCP segments retransmitted) while the release gets through. Here the
 * proxy holds the requests of the acquire's connection until the receipt written by the
 * clean-up (or by the release) expired, 2 s with the 500 ms command timeout, then
 * delivers them.
 * <p>
 * Before the fix the copy took the free lock for the whole 30 s lease under a token
 * nobody holds (both tests failed: the lock key was there and another instance was
 * refused). Now every acquire carries the server time after which it changes nothing
 * ({@code notAfter}), which is never later than the receipt of a clean-up sent after it
 * lives, whatever the delay.
 */
class LateAcquireCopyTests {

	private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	private static final String LOCK_ID = "late-copy";

	private static final String KEY = "distlock:{" + LOCK_ID + "}";

	private static final String RECEIPT = LockKeys.receiptKey(KEY);

	private static final Pattern EVALSHA_CALLS = Pattern.compile("cmdstat_evalsha:calls=(\\d+)");

	private static RedisServer master;

	private static RedisServer replica;

	private final List<Runnable> cleanUps = new ArrayList<>();

	private TcpProxy proxy;

	@BeforeAll
	static void startMasterAndReplica() {
		master = RedisServer.start();
		replica = RedisServer.builder().replicaOf(master).start();
	}

	@AfterAll
	static void stopThem() {
		if (replica != null) {
			replica.close();
		}
		if (master != null) {
			master.close();
		}
	}

	@BeforeEach
	void replicaInSync() {
		master.flushAll();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> replica.command("INFO", "replication").contains("master_link_status:up"));
		this.proxy = TcpProxy.to(master);
	}

	@AfterEach
	void close() {
		for (int i = this.cleanUps.size() - 1; i >= 0; i--) {
			this.cleanUps.get(i).run();
		}
		this.proxy.close();
	}

	@Test
	void aLateCopyOfAnAbandonedAcquireTakesNoFreeLock() {
		RedisLockService instance = replicated(this.proxy.port());
		holdTheNextAcquire(instance);

		assertThatThrownBy(() -> instance.lock(LOCK_ID, Duration.ZERO)).isInstanceOf(LockNotAcquiredException.class);
		assertThat(this.proxy.holdsRequestsOfAConnection()).as("the acquire is held back").isTrue();

		deliverTheHeldAcquireOnceTheReceiptExpired();

		assertNoGhostLock();
	}

	@Test
	void aLateCopyOfAnAcquireThatWasRetriedAndReleasedDoesNotRecreateTheLock() {
		RedisLockService instance = replicated(this.proxy.port());
		holdTheNextAcquire(instance);

		// The first attempt times out; the next one, on a fresh connection, acquires.
		LockHandle held = instance.lock(LOCK_ID, Duration.ofSeconds(20));
		assertThat(this.proxy.holdsRequestsOfAConnection()).as("the first acquire is held back").isTrue();
		held.close();

		deliverTheHeldAcquireOnceTheReceiptExpired();

		assertNoGhostLock();
	}

	/**
	 * Warms the instance up (script cached, dedicated connection open), then makes the
	 * proxy hold the connection that sends the next acquire.
	 */
	private void holdTheNextAcquire(RedisLockService instance) {
		instance.lock("warm-up", Duration.ofSeconds(10)).close();
		this.proxy.holdRequestsOfConnectionSending(PreparedScript.of(LockScripts.ACQUIRE).sha1);
	}

	private void deliverTheHeldAcquireOnceTheReceiptExpired() {
		await().atMost(Duration.ofSeconds(10)).until(() -> "1".equals(master.command("EXISTS", RECEIPT)));
		await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(master.command("EXISTS", RECEIPT)));
		long scriptsRun = evalshaCalls();
		this.proxy.heal();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.proxy.heldRequestsDelivered() > 0);
		await().atMost(Duration.ofSeconds(10)).until(() -> evalshaCalls() > scriptsRun);
	}

	private void assertNoGhostLock() {
		assertThat(master.command("EXISTS", KEY)).as("a lock key left by the late copy").isEqualTo("0");
		Optional<LockHandle> other = replicated(master.port()).tryLock(LOCK_ID, Duration.ZERO, null);
		assertThat(other).as("another instance acquires at once").isPresent();
		other.get().close();
	}

	private static long evalshaCalls() {
		Matcher calls = EVALSHA_CALLS.matcher(master.command("INFO", "commandstats"));
		return calls.find() ? Long.parseLong(calls.group(1)) : 0;
	}

	/**
	 * An instance with a 30 s lease whose acquisitions wait for one replica, through
	 * {@code port} to the master, 500 ms command timeout (receipts live 2 s).
	 */
	private RedisLockService replicated(int port) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(master.host(), port),
				LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT).build());
		factory.afterPropertiesSet();
		factory.start();
		RedisLockService service = new RedisLockService(new StringRedisTemplate(factory),
				RedisLockSettings.defaults()
					.withLeaseTime(Duration.ofSeconds(30))
					.withReplication(1, Duration.ofSeconds(1)));
		this.cleanUps.add(factory::destroy);
		this.cleanUps.add(service::destroy);
		return service;
	}

}
