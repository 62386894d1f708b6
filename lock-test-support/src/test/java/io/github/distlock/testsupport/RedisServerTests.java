package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RedisServerTests {

	@Test
	void startsOnAFreeLoopbackPortAndAnswersPing() {
		try (RedisServer redis = RedisServer.start()) {
			assertThat(redis.host()).isEqualTo("127.0.0.1");
			assertThat(redis.port()).isPositive().isNotEqualTo(6379);
			assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
			assertThat(redis.pid()).isPositive();
			assertThat(redis.isRunning()).isTrue();
			assertThat(redis.command("PING")).isEqualTo("PONG");
			assertThat(redis.command("CONFIG", "GET", "save")).isEqualTo("save\n");
			assertThat(redis.command("CONFIG", "GET", "appendonly")).isEqualTo("appendonly\nno");
		}
	}

	@Test
	void commandRendersEveryReplyTypeAsText() {
		try (RedisServer redis = RedisServer.start()) {
			assertThat(redis.command("SET", "greeting", "héllo wörld")).isEqualTo("OK");
			assertThat(redis.command("GET", "greeting")).isEqualTo("héllo wörld");
			assertThat(redis.command("GET", "missing")).isNull();
			assertThat(redis.command("INCR", "counter")).isEqualTo("1");
			assertThat(redis.command("RPUSH", "list", "a", "b", "c")).isEqualTo("3");
			assertThat(redis.command("LRANGE", "list", "0", "-1")).isEqualTo("a\nb\nc");
			assertThat(redis.command("MGET", "greeting", "missing")).isEqualTo("héllo wörld\nnull");
			assertThat(redis.command("LRANGE", "no-list", "0", "-1")).isEmpty();
		}
	}

	@Test
	void errorRepliesThrowWithRedisText() {
		try (RedisServer redis = RedisServer.start()) {
			redis.command("SET", "string", "v");
			assertThatThrownBy(() -> redis.command("LPUSH", "string", "x")).isInstanceOf(RedisServerException.class)
				.hasMessageStartingWith("WRONGTYPE");
			assertThatThrownBy(() -> redis.command("NO-SUCH-COMMAND")).isInstanceOf(RedisServerException.class)
				.hasMessageStartingWith("ERR unknown command");
		}
	}

	@Test
	void pausedServerKeepsRunningButAnswersNothingUntilResumed() {
		try (RedisServer redis = RedisServer.start()) {
			redis.pause();

			assertThat(redis.isRunning()).isTrue();
			assertThatThrownBy(() -> redis.command(Duration.ofMillis(200), "PING"))
				.isInstanceOf(UncheckedIOException.class)
				.hasCauseInstanceOf(SocketTimeoutException.class);

			redis.resume();
			assertThat(redis.command("PING")).isEqualTo("PONG");
		}
	}

	@Test
	void restartAfterKillWithoutPersistenceStartsEmptyOnTheSamePort() {
		try (RedisServer redis = RedisServer.start()) {
			int port = redis.port();
			long firstPid = redis.pid();
			redis.command("SET", "k", "v");

			redis.kill();
			assertThat(redis.isRunning()).isFalse();
			redis.restart();

			assertThat(redis.isRunning()).isTrue();
			assertThat(redis.port()).isEqualTo(port);
			assertThat(redis.pid()).isNotEqualTo(firstPid);
			assertThat(redis.command("DBSIZE")).isEqualTo("0");
		}
	}

	@Test
	void restartAfterKillWithPersistenceKeepsAcknowledgedWrites() {
		try (RedisServer redis = RedisServer.builder().persistence(true).start()) {
			assertThat(redis.command("CONFIG", "GET", "appendfsync")).isEqualTo("appendfsync\nalways");
			redis.command("SET", "k", "survives");

			redis.kill();
			redis.restart();

			assertThat(redis.command("GET", "k")).isEqualTo("survives");
		}
	}

	@Test
	void restartOfARunningServerStopsItFirst() {
		try (RedisServer redis = RedisServer.builder().persistence(true).start()) {
			redis.command("SET", "k", "v");
			long firstPid = redis.pid();

			redis.restart();

			assertThat(redis.pid()).isNotEqualTo(firstPid);
			assertThat(ProcessHandle.of(firstPid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
			assertThat(redis.command("GET", "k")).isEqualTo("v");
		}
	}

	@Test
	void restartEmptyDropsEvenPersistedData() {
		try (RedisServer redis = RedisServer.builder().persistence(true).start()) {
			int port = redis.port();
			redis.command("SET", "k", "v");

			redis.restartEmpty();

			assertThat(redis.port()).isEqualTo(port);
			assertThat(redis.command("DBSIZE")).isEqualTo("0");
			assertThat(redis.command("CONFIG", "GET", "appendonly")).isEqualTo("appendonly\nyes");
		}
	}

	@Test
	void stopShutsDownGracefully() {
		try (RedisServer redis = RedisServer.start()) {
			redis.stop();

			assertThat(redis.isRunning()).isFalse();
			assertThat(redis.logTail(5)).contains("ready to exit");
			redis.stop(); // stopping a stopped server is harmless
		}
	}

	@Test
	void stopWorksOnAPausedServer() {
		try (RedisServer redis = RedisServer.start()) {
			redis.pause();
			redis.stop();
			assertThat(redis.isRunning()).isFalse();
		}
	}

	@Test
	void replicaReceivesWritesToItsPrimary() {
		try (RedisServer primary = RedisServer.start();
				RedisServer replica = RedisServer.builder().replicaOf(primary).start()) {
			primary.command("SET", "replicated", "yes");

			awaitUntil(Duration.ofSeconds(10), () -> "yes".equals(replica.command("GET", "replicated")),
					() -> "replica never saw the key; replica log:\n" + replica.logTail(20));
			assertThat(replica.command("ROLE")).startsWith("slave\n127.0.0.1\n" + primary.port());
		}
	}

	@Test
	void keysScansForAPatternAcrossManyPages() {
		try (RedisServer redis = RedisServer.start()) {
			List<String> mset = new ArrayList<>(List.of("MSET"));
			IntStream.range(0, 2500).forEach(i -> mset.addAll(List.of("bulk:" + i, "v")));
			redis.command(mset.toArray(String[]::new));
			redis.command("SET", "lock:b", "1");
			redis.command("SET", "lock:a", "1");

			assertThat(redis.keys("lock:*")).containsExactly("lock:a", "lock:b");
			assertThat(redis.keys("bulk:*")).hasSize(2500);
			assertThat(redis.keys("nothing:*")).isEmpty();

			redis.flushAll();
			assertThat(redis.keys("*")).isEmpty();
		}
	}

	@Test
	void extraArgsAndPasswordAreApplied() {
		try (RedisServer redis = RedisServer.builder()
			.arg("maxmemory-policy", "noeviction")
			.requirePassword("s3cret pw")
			.start()) {
			assertThat(redis.command("CONFIG", "GET", "maxmemory-policy")).isEqualTo("maxmemory-policy\nnoeviction");
			assertThat(redis.uri()).isEqualTo("redis://:s3cret%20pw@127.0.0.1:" + redis.port());

			try (RedisServer replica = RedisServer.builder().replicaOf(redis).start()) {
				redis.command("SET", "k", "v");
				awaitUntil(Duration.ofSeconds(10), () -> "v".equals(replica.command("GET", "k")),
						() -> "replica could not authenticate; log:\n" + replica.logTail(20));
			}
		}
	}

	@Test
	void explicitPortIsUsedAndATakenOneFailsWithTheLog() throws IOException {
		int port;
		try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			port = probe.getLocalPort();
		}
		try (RedisServer redis = RedisServer.builder().port(port).start()) {
			assertThat(redis.port()).isEqualTo(port);

			assertThatThrownBy(() -> RedisServer.builder().port(port).start()).isInstanceOf(RedisServerException.class)
				.hasMessageContaining("port " + port)
				.hasMessageContaining("Address already in use");
		}
	}

	@Test
	void port6379IsNeverUsed() {
		assertThatThrownBy(() -> RedisServer.builder().port(6379)).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void startupFailureReportsTheLogTail() {
		assertThatThrownBy(() -> RedisServer.builder().arg("no-such-directive", "1").start())
			.isInstanceOf(RedisServerException.class)
			.hasMessageContaining("exited with code")
			.hasMessageContaining("no-such-directive");
	}

	@Test
	void closeIsIdempotentKillsAPausedServerAndFreesThePort() throws IOException {
		RedisServer redis = RedisServer.start();
		long pid = redis.pid();
		int port = redis.port();
		redis.pause();

		redis.close();
		redis.close();

		assertThat(redis.isRunning()).isFalse();
		assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
		try (ServerSocket rebind = new ServerSocket()) {
			rebind.setReuseAddress(true);
			rebind.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
		}
		assertThatThrownBy(redis::restart).isInstanceOf(IllegalStateException.class);
	}

	static void awaitUntil(Duration timeout, BooleanSupplier condition, Supplier<String> failureMessage) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() - deadline > 0) {
				throw new AssertionError(failureMessage.get());
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new AssertionError("interrupted", e);
			}
		}
	}

}
