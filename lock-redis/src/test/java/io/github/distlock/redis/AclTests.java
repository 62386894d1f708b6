package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.github.distlock.LockHandle;
import io.github.distlock.core.EngineProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServer;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The lock with a least-privilege Redis ACL user: the keys and channels of the prefix and
 * the commands the lock sends (scripts, and the commands they call) — the minimal ACL
 * documented in docs/operations.md. Redis's {@code ACL LOG} must stay empty, so no denied
 * command was silently worked around (e.g. waiting by polling because {@code SUBSCRIBE}
 * was denied). A permission taken away fails the call at once with Redis's {@code NOPERM}
 * text.
 */
class AclTests {

	/**
	 * The documented minimal ACL for the default prefix {@code distlock:}: the rules of
	 * its first {@code ACL SETUSER} line, after the user name, {@code on} and the
	 * password.
	 */
	static final String[] LOCK_ACL = rules(ReadmeAcl.commands().get(0));

	/**
	 * What fair locks need beyond {@link #LOCK_ACL}: the queue's list and hash commands.
	 */
	static final String[] FAIR_ACL = { "+lindex", "+lpop", "+rpush", "+hget", "+hset", "+hdel" };

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension(AclTests::startRedis);

	private final List<LockEngine> services = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private static RedisServer startRedis() {
		List<String> withoutChannels = new ArrayList<>(List.of(LOCK_ACL));
		withoutChannels.remove("&distlock:*");
		List<String> withoutScripts = new ArrayList<>(List.of(LOCK_ACL));
		withoutScripts.removeAll(List.of("+evalsha", "+eval"));
		List<String> fair = new ArrayList<>(List.of(LOCK_ACL));
		fair.addAll(List.of(FAIR_ACL));
		return RedisServer.builder()
			.aclUser("locker", "locker-secret", LOCK_ACL)
			.aclUser("fair-locker", "fair-locker-secret", fair.toArray(String[]::new))
			.aclUser("other-prefix", "other-secret", "~other:*", "&other:*", "+@all")
			.aclUser("no-channels", "no-channels-secret", withoutChannels.toArray(String[]::new))
			.aclUser("no-scripts", "no-scripts-secret", withoutScripts.toArray(String[]::new))
			.start();
	}

	@BeforeEach
	void clean() {
		redis.command("ACL", "LOG", "RESET");
	}

	@AfterEach
	void close() {
		this.services.forEach(LockEngine::destroy);
		this.factories.forEach(LettuceConnectionFactory::destroy);
	}

	@Test
	void acquireReleaseExtendRenewAndFencingWithTheMinimalAcl() {
		LockEngine service = service("locker", "locker-secret",
				RedisLockSettings.defaults().withLeaseTime(Duration.ofMillis(1500)));
		LockHandle first = service.lock("acl", Duration.ZERO);
		assertThat(service.isLocked("acl")).isTrue();
		assertThat(service.remainingLease("acl")).isPresent();
		assertThat(first.extend(Duration.ofSeconds(5))).isTrue();
		first.close();
		LockHandle renewed = service.lock("acl", Duration.ZERO);
		assertThat(renewed.fencingToken()).isGreaterThan(first.fencingToken());
		// Renewed every 500ms: hold for two leases.
		LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3200));
		assertThat(renewed.isHeld()).isTrue();
		assertThat(service.renewalFailures()).isZero();
		renewed.close();
		assertThat(service.isLocked("acl")).isFalse();
		assertNothingDenied();
	}

	@Test
	void fairLocksAreQueuedAndGrantedWithTheMinimalAclAndTheQueueCommands() throws Exception {
		LockEngine a = service("fair-locker", "fair-locker-secret", RedisLockSettings.defaults());
		LockEngine b = service("fair-locker", "fair-locker-secret", RedisLockSettings.defaults());
		LockHandle held = a.fair().lock("acl-fair", Duration.ZERO);
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			Future<Long> waiter = pool.submit(() -> {
				try (LockHandle next = b.fair().lock("acl-fair", Duration.ofSeconds(30))) {
					return next.fencingToken();
				}
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "1".equals(redis.command("HLEN", "distlock:{acl-fair}:waiting")));
			held.close();
			assertThat(waiter.get(30, TimeUnit.SECONDS)).isGreaterThan(held.fencingToken());
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(a.fair().tryLock("acl-fair", Duration.ofMillis(100), null)).hasValueSatisfying(LockHandle::close);
		assertNothingDenied();
	}

	@Test
	void aWaiterOnAnotherInstanceIsWokenByPubSubAndALocalOneByHandOver() throws Exception {
		LockEngine a = service("locker", "locker-secret", RedisLockSettings.defaults());
		LockEngine b = service("locker", "locker-secret", RedisLockSettings.defaults());
		LockHandle held = a.lock("acl-wait", Duration.ZERO);
		ExecutorService pool = Executors.newFixedThreadPool(2);
		try {
			AtomicReference<Thread> local = new AtomicReference<>();
			Future<Long> remoteWaiter = pool.submit(() -> {
				try (LockHandle next = b.lock("acl-wait", Duration.ofSeconds(30))) {
					return next.fencingToken();
				}
			});
			Future<Long> localWaiter = pool.submit(() -> {
				local.set(Thread.currentThread());
				try (LockHandle next = a.lock("acl-wait", Duration.ofSeconds(30))) {
					return next.fencingToken();
				}
			});
			await().atMost(Duration.ofSeconds(10))
				.until(() -> redis.command("GET", "distlock:{acl-wait}").endsWith("+"));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> local.get() != null && EngineProbe.isQueuedWaiter(local.get()));
			held.close();
			assertThat(localWaiter.get(30, TimeUnit.SECONDS)).isGreaterThan(held.fencingToken());
			assertThat(remoteWaiter.get(30, TimeUnit.SECONDS)).isGreaterThan(held.fencingToken());
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(redis.keys("distlock:{acl-wait}")).isEmpty();
		assertNothingDenied();
	}

	@Test
	void keysOutsideTheUsersPatternFailAtOnceWithNoperm() {
		LockEngine service = service("other-prefix", "other-secret", RedisLockSettings.defaults());
		assertTimeoutPreemptively(Duration.ofSeconds(30),
				() -> assertThatException().isThrownBy(() -> service.lock("denied", Duration.ofSeconds(20)))
					.satisfies((ex) -> assertThat(messages(ex)).contains("NOPERM")));
		assertThat(redis.keys("distlock:*")).isEmpty();
	}

	@Test
	void scriptsNotAllowedFailAtOnceWithNoperm() {
		LockEngine service = service("no-scripts", "no-scripts-secret", RedisLockSettings.defaults());
		assertTimeoutPreemptively(Duration.ofSeconds(30),
				() -> assertThatException().isThrownBy(() -> service.lock("denied", Duration.ofSeconds(20)))
					.satisfies((ex) -> assertThat(messages(ex)).contains("NOPERM")));
	}

	@Test
	void aReleaseThatMayNotPublishFailsWithRedissAclErrorInsteadOfBeingSwallowed() throws Exception {
		LockEngine service = service("no-channels", "no-channels-secret", RedisLockSettings.defaults());
		LockEngine other = service("locker", "locker-secret", RedisLockSettings.defaults());
		LockHandle held = service.lock("no-publish", Duration.ZERO);
		// Another instance fails to acquire and flags the lock as contended: its release
		// must publish.
		assertThat(other.tryLock("no-publish", Duration.ZERO, null)).isEmpty();
		// A denial inside a script is worded by Redis 7.0 as "ERR The user executing the
		// script can't publish...".
		assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatException().isThrownBy(held::close)
			.satisfies((ex) -> assertThat(messages(ex)).containsAnyOf("NOPERM", "can't publish to the channel")));
	}

	private static String[] rules(List<String> command) {
		List<String> head = List.of("ACL", "SETUSER", ReadmeAcl.USER, "on", ">" + ReadmeAcl.PASSWORD);
		assertThat(command.subList(0, head.size())).as("the documented first ACL line").isEqualTo(head);
		return command.subList(head.size(), command.size()).toArray(String[]::new);
	}

	private LockEngine service(String user, String password, RedisLockSettings settings) {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.host(), redis.port());
		server.setUsername(user);
		server.setPassword(password);
		LettuceConnectionFactory factory = new LettuceConnectionFactory(server,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		LockEngine service = RedisEngines.blocking(new StringRedisTemplate(factory), settings);
		this.services.add(service);
		return service;
	}

	/**
	 * The messages of the exception and its causes, as a log or a stack trace shows them.
	 */
	private static String messages(Throwable failure) {
		StringBuilder text = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			text.append(cause).append('\n');
		}
		return text.toString();
	}

	/**
	 * Nothing in {@code ACL LOG} but Lettuce's {@code CLIENT SETINFO} at connect, which
	 * Redis 7.0 does not know and Redis 6.2 and 7.2+ deny to this user; Lettuce ignores
	 * that reply.
	 */
	private static void assertNothingDenied() {
		List<String> log = List.of(redis.command("ACL", "LOG").split("\n"));
		List<String> deniedObjects = new ArrayList<>();
		for (int i = 0; i + 1 < log.size(); i++) {
			if (log.get(i).equals("object")) {
				deniedObjects.add(log.get(i + 1));
			}
		}
		assertThat(deniedObjects).as("ACL LOG: %s", log).allMatch((object) -> object.startsWith("client"));
	}

}
