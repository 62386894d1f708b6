package io.github.distlock.redis;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import ch.qos.logback.classic.Level;
import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A release that Redis refuses for now (here: {@code READONLY}, the server demoted to a
 * replica as in a failover) is logged and left to the lease, like an unreachable Redis:
 * the protected work is done and must not look failed. Error replies that are mistakes
 * are thrown: see {@link AclTests}.
 */
class ReleaseFailureTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	@AfterEach
	void stopReplicating() {
		redis.command("REPLICAOF", "NO", "ONE");
	}

	@Test
	void aReleaseRefusedByAReadOnlyRedisIsLoggedAndTheLockExpiresWithItsLease() throws Exception {
		LockEngine service = this.clients.newService();
		LockHandle handle = service.tryLock("demoted", Duration.ZERO, Duration.ofSeconds(30)).orElseThrow();
		// A replica of a primary nobody listens for: it keeps its data (no sync) and
		// refuses writes.
		int nobodyListens;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			nobodyListens = socket.getLocalPort();
		}
		redis.command("REPLICAOF", "127.0.0.1", Integer.toString(nobodyListens));
		List<String> warnings;
		try (CapturedLogs logs = CapturedLogs.from(Level.WARN)) {
			handle.close();
			warnings = logs.atLeast(Level.WARN, "io.github.distlock").stream().map(CapturedLogs::fullText).toList();
		}
		assertThat(warnings).singleElement()
			.asString()
			.startsWith("Could not release lock 'demoted'")
			.contains("READONLY");
		assertThat(redis.keys("distlock:{demoted}")).hasSize(1);
		assertThat(service.trackedLockCount()).isZero();
	}

}
