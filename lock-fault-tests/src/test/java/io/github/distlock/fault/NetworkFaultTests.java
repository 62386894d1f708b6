package io.github.distlock.fault;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.context.LockLostEvent;
import io.github.distlock.LockLostException;
import io.github.distlock.redis.LockServiceProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import io.github.distlock.testsupport.TcpProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 6: the network between a holder and Redis fails (a {@link TcpProxy}
 * black-holes, holds replies or resets and refuses connections). The loss is signalled
 * within the lease; another instance then gets the lock; when the network heals, the
 * holder's delayed commands do not touch the new owner's key, the holder recovers and can
 * lock again, and nothing leaks.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class NetworkFaultTests {

	static final Duration LEASE = Duration.ofSeconds(1);

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(300);

	/** Allowance for thread scheduling on a loaded CI machine on top of the lease. */
	static final Duration SCHEDULING_ALLOWANCE = Duration.ofMillis(500);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	private TcpProxy proxy;

	private LockClients partitioned;

	private LockClients direct;

	@BeforeEach
	void connect() {
		this.proxy = TcpProxy.to(redis.server());
		this.partitioned = new LockClients(this.proxy.host(), this.proxy.port(), COMMAND_TIMEOUT);
		this.direct = new LockClients(redis.host(), redis.port(), COMMAND_TIMEOUT);
	}

	@AfterEach
	void disconnect() {
		this.proxy.heal();
		this.partitioned.close();
		this.direct.close();
		this.proxy.close();
	}

	@Test
	void blackHoledHolderLearnsOfTheLossWithinTheLeaseAndRecovers() throws Exception {
		survivesPartition("black-holed", this.proxy::blackHole);
	}

	@Test
	void holderWhoseConnectionIsResetAndRefusedLearnsOfTheLossWithinTheLeaseAndRecovers() throws Exception {
		survivesPartition("reset", () -> {
			this.proxy.refuseConnections();
			this.proxy.resetConnections();
		});
	}

	@Test
	void holderWhoseRepliesAreHeldLearnsOfTheLossWithinTheLeaseAndRecovers() throws Exception {
		// Renewals still reach Redis but the holder cannot know: it must give the lock up
		// anyway.
		survivesPartition("replies-held", this.proxy::holdReplies);
	}

	private void survivesPartition(String id, Runnable fault) throws Exception {
		LockEngine holderService = this.partitioned.newService(LEASE, Duration.ofMinutes(1));
		LockEngine otherService = this.direct.newService(LEASE, Duration.ofMinutes(1));
		LockLostEvents events = LockLostEvents.of(holderService);
		LockHandle holder = holderService.lock(id, Duration.ZERO);

		long faultAt = System.nanoTime();
		fault.run();
		LockLostEvent event = events.next(LEASE.plus(SCHEDULING_ALLOWANCE));
		long signalledAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - faultAt);
		assertThat(event).as("lock-lost event within the lease").isNotNull();
		assertThat(event.getLockId()).isEqualTo(id);
		assertThat(event.getFencingToken()).isEqualTo(holder.fencingToken());
		assertThat(holder.isHeld()).isFalse();

		// Held-back renewals may still extend the old key by up to one lease; then it is
		// the other's turn.
		Optional<LockHandle> taken = otherService.tryLock(id, LEASE.multipliedBy(3), null);
		assertThat(taken).as("lock taken over during the partition").isPresent();
		LockHandle owner = taken.get();
		String ownersKey = redis.command("GET", "distlock:{" + id + "}");

		this.proxy.heal();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(holder::close);
		// Whatever the healed connection delivers late is owner-checked.
		await().during(LEASE.dividedBy(2))
			.atMost(LEASE.multipliedBy(3))
			.until(() -> ownersKey.equals(redis.command("GET", "distlock:{" + id + "}")));
		assertThat(owner.isHeld()).isTrue();
		owner.close();

		// The holder's client recovers on the same connection factory.
		await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
			try (LockHandle again = holderService.lock(id + "-again", Duration.ofSeconds(1))) {
				return again.isHeld();
			}
		});
		assertThat(holderService.heldLocks()).isEmpty();
		assertThat(LockServiceProbe.trackedLockCount(holderService)).isZero();
		assertThat(LockServiceProbe.trackedLockCount(otherService)).isZero();
		assertThat(redis.keys("distlock:*")).allMatch((key) -> key.endsWith(":fence") || key.endsWith(":released"));
		System.out.printf("scenario 6 (%s): loss signalled %d ms after the fault (lease %d ms)%n", id, signalledAfter,
				LEASE.toMillis());
	}

}
