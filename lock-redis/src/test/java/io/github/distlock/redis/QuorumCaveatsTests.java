package io.github.distlock.redis;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockHandle;
import io.github.distlock.LockLostException;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.FencedResource;
import io.github.distlock.testsupport.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The articles' caveats of Redlock made concrete on three real nodes: a node restarted
 * without persistence while a lock is held on it (the "delayed restart" argument), and a
 * holder paused past its lease. Both let a second holder in; fencing tokens make the
 * resource refuse the stale holder's writes.
 */
class QuorumCaveatsTests {

	private QuorumNodes nodes;

	private RedisServer resourceServer;

	private FencedResource resource;

	@BeforeEach
	void start() {
		this.nodes = new QuorumNodes(3, false);
		this.nodes.markEstablished();
		this.resourceServer = RedisServer.start();
		this.resource = FencedResource.connect(this.resourceServer);
	}

	@AfterEach
	void stop() {
		if (this.resource != null) {
			this.resource.close();
		}
		if (this.resourceServer != null) {
			this.resourceServer.close();
		}
		this.nodes.close();
	}

	@Test
	void aNodeRestartedEmptyWhileALockIsHeldLetsASecondHolderInAndFencingRefusesTheFirst() {
		LockEngine first = this.nodes.newService(Duration.ofSeconds(30));
		LockEngine second = this.nodes.newService(Duration.ofSeconds(30));
		// The first holder gets nodes 0 and 1: node 2 is down when it acquires.
		this.nodes.server(2).kill();
		LockHandle stale = first.lock("invoice", Duration.ofSeconds(5));
		assertThat(this.resource.write("invoice", stale.fencingToken(), "first")).isTrue();
		// Node 2 comes back, and node 0 restarts at once without its data (no delayed
		// restart): nodes 0 and 2 are now a majority that never saw the lock.
		this.nodes.server(2).restart();
		this.nodes.server(0).restartEmpty();
		// Until the clients reconnected to the restarted nodes, their commands are
		// refused.
		AtomicReference<LockHandle> acquired = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> second.tryLock("invoice", Duration.ofSeconds(1), null).map((lock) -> {
				acquired.set(lock);
				return true;
			}).orElse(false));
		Optional<LockHandle> intruder = Optional.of(acquired.get());
		int doubleOwnership = (stale.isHeld() && intruder.get().isHeld()) ? 1 : 0;
		assertThat(this.resource.write("invoice", intruder.get().fencingToken(), "second")).isTrue();
		boolean staleAccepted = this.resource.write("invoice", stale.fencingToken(), "first again");
		System.out.println("[quorum-caveats] node restarted empty while held: double ownership " + doubleOwnership
				+ " (both isHeld), tokens " + stale.fencingToken() + " then " + intruder.get().fencingToken()
				+ ", stale holder's write accepted: " + staleAccepted + ", value '" + this.resource.value("invoice")
				+ "'");
		assertThat(doubleOwnership).isEqualTo(1);
		assertThat(intruder.get().fencingToken()).isGreaterThan(stale.fencingToken());
		assertThat(staleAccepted).isFalse();
		assertThat(this.resource.value("invoice")).isEqualTo("second");
		intruder.get().close();
	}

	@Test
	void aHolderPausedPastItsLeaseFindsItsWritesRefused() throws Exception {
		LockEngine first = this.nodes.newService(Duration.ofSeconds(30));
		LockEngine second = this.nodes.newService(Duration.ofSeconds(30));
		CountDownLatch resumed = new CountDownLatch(1);
		LockHandle paused = first.tryLock("report", Duration.ofSeconds(5), Duration.ofMillis(300)).orElseThrow();
		assertThat(this.resource.write("report", paused.fencingToken(), "paused holder")).isTrue();
		// The holder now stops (a GC pause, SIGSTOP) while its fixed lease runs out.
		try (LockHandle next = second.lock("report", Duration.ofSeconds(10))) {
			assertThat(this.resource.write("report", next.fencingToken(), "next holder")).isTrue();
			resumed.countDown();
			assertThat(resumed.await(1, TimeUnit.SECONDS)).isTrue();
			boolean believedHeld = paused.isHeld();
			boolean staleAccepted = this.resource.write("report", paused.fencingToken(), "stale");
			System.out.println("[quorum-caveats] holder paused past its 300 ms lease: on resume isHeld " + believedHeld
					+ ", stale write accepted: " + staleAccepted + " (tokens " + paused.fencingToken() + " < "
					+ next.fencingToken() + ")");
			assertThat(believedHeld).isFalse();
			assertThat(staleAccepted).isFalse();
		}
		assertThatExceptionOfType(LockLostException.class).isThrownBy(paused::close);
		assertThat(this.resource.rejected("report")).isEqualTo(1);
	}

}
