package io.github.distlock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TcpProxyTests {

	@Test
	void forwardsAndHoldsBytesWithoutLosingThem() throws Exception {
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try (RedisServer redis = RedisServer.start();
				TcpProxy proxy = TcpProxy.to(redis);
				RespConnection connection = RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(10))) {
			assertThat(connection.call("SET", "k", "1")).isEqualTo("OK");

			proxy.blackHole();
			Future<Object> held = pool.submit(() -> connection.call("INCR", "k"));
			assertThatThrownBy(() -> held.get(300, TimeUnit.MILLISECONDS))
				.isInstanceOf(java.util.concurrent.TimeoutException.class);
			assertThat(redis.command("GET", "k")).as("request held back").isEqualTo("1");
			proxy.heal();
			assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(2L);

			proxy.holdReplies();
			Future<Object> replyHeld = pool.submit(() -> connection.call("INCR", "k"));
			assertThat(awaitValue(redis, "3")).as("request reached Redis").isTrue();
			assertThat(replyHeld.isDone()).isFalse();
			proxy.heal();
			assertThat(replyHeld.get(10, TimeUnit.SECONDS)).isEqualTo(3L);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void holdsTheRequestsOfOneConnectionWhileOthersPass() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(2);
		try (RedisServer redis = RedisServer.start();
				TcpProxy proxy = TcpProxy.to(redis);
				RespConnection held = RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(10));
				RespConnection other = RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(10))) {
			assertThat(held.call("SET", "k", "1")).isEqualTo("OK");

			proxy.holdRequestsOfConnectionSending("INCRBY");
			Future<Object> late = pool.submit(() -> held.call("INCRBY", "k", "10"));
			assertThat(awaitHolding(proxy)).as("the connection sending INCRBY is held").isTrue();
			assertThat(other.call("GET", "k")).as("another connection passes").isEqualTo("1");
			assertThat(other.call("INCRBY", "k", "100")).as("a later sender of the marker passes").isEqualTo(101L);
			assertThat(late.isDone()).isFalse();
			assertThat(proxy.heldRequestsDelivered()).isZero();
			proxy.heal();
			assertThat(late.get(10, TimeUnit.SECONDS)).isEqualTo(111L);
			assertThat(proxy.heldRequestsDelivered()).isEqualTo(1);

			// Held bytes of a connection its client closed still reach the server.
			RespConnection closing = RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(10));
			assertThat(closing.call("PING")).isEqualTo("PONG");
			proxy.holdRequestsOfConnectionSending("DECRBY");
			Future<Object> abandoned = pool.submit(() -> closing.call("DECRBY", "k", "1"));
			assertThat(awaitHolding(proxy)).isTrue();
			closing.close();
			assertThatThrownBy(() -> abandoned.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
			assertThat(redis.command("GET", "k")).isEqualTo("111");
			proxy.heal();
			assertThat(awaitValue(redis, "110")).as("the late copy was applied").isTrue();
			assertThat(proxy.heldRequestsDelivered()).isEqualTo(2);
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static boolean awaitHolding(TcpProxy proxy) throws InterruptedException {
		for (int i = 0; i < 500 && !proxy.holdsRequestsOfAConnection(); i++) {
			Thread.sleep(10);
		}
		return proxy.holdsRequestsOfAConnection();
	}

	@Test
	void resetsOpenConnectionsAndRefusesNewOnesUntilHealed() throws Exception {
		try (RedisServer redis = RedisServer.start(); TcpProxy proxy = TcpProxy.to(redis)) {
			RespConnection connection = RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(5));
			assertThat(connection.call("PING")).isEqualTo("PONG");
			proxy.refuseConnections();
			proxy.resetConnections();
			assertThatThrownBy(() -> connection.call("PING")).isInstanceOf(IOException.class);
			connection.close();
			assertThatThrownBy(() -> {
				try (RespConnection refused = RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(5))) {
					refused.call("PING");
				}
			}).isInstanceOf(IOException.class).isNotInstanceOf(SocketTimeoutException.class);
			proxy.heal();
			try (RespConnection healed = RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(5))) {
				assertThat(healed.call("PING")).isEqualTo("PONG");
			}
			assertThat(proxy.connectionsAccepted()).isEqualTo(3);
		}
	}

	@Test
	void addsLatencyInBothDirections() throws Exception {
		try (RedisServer redis = RedisServer.start();
				TcpProxy proxy = TcpProxy.to(redis);
				RespConnection connection = RespConnection.open(proxy.host(), proxy.port(), Duration.ofSeconds(10))) {
			proxy.latency(Duration.ofMillis(200));
			long start = System.nanoTime();
			assertThat(connection.call("PING")).isEqualTo("PONG");
			// A lower bound only: each direction waits at least the latency.
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
			proxy.latency(Duration.ZERO);
			assertThat(connection.call("PING")).isEqualTo("PONG");
		}
	}

	private static boolean awaitValue(RedisServer redis, String expected) throws InterruptedException {
		for (int i = 0; i < 500; i++) {
			try {
				if (expected.equals(redis.command("GET", "k"))) {
					return true;
				}
			}
			catch (UncheckedIOException e) {
				// try again
			}
			Thread.sleep(10);
		}
		return false;
	}

}
