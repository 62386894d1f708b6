package io.github.distlock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.context.LockLostEvent;
import io.github.distlock.LockLostException;
import io.github.distlock.HeldLockInfo;
import io.github.distlock.redis.LockServiceProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import io.github.distlock.testsupport.TcpProxy;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * "Lock loss must be visible": when renewal finds the key gone or cannot complete, the
 * handle turns not held at once, a {@link LockLostEvent} is published and {@code close()}
 * throws {@link LockLostException} without touching the next owner's key; the local
 * deadline needs no round trip; shutdown releases everything and stops renewal.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class LockLossVisibilityTests {

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(300);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final LockClients clients = new LockClients(redis.host(), redis.port(), COMMAND_TIMEOUT);

	@Test
	void aDeletedKeyIsFoundByRenewalAndTheCloseSparesTheNextOwner() throws Exception {
		Duration lease = Duration.ofMillis(900);
		LockEngine service = this.clients.newService(lease, Duration.ofMinutes(1));
		LockEngine next = this.clients.newService(lease, Duration.ofMinutes(1));
		LockLostEvents events = LockLostEvents.of(service);
		LockHandle handle = service.lock("deleted", Duration.ZERO);
		redis.command("DEL", "distlock:{deleted}");

		LockLostEvent event = events.next(lease.multipliedBy(2));
		assertThat(event).isNotNull();
		assertThat(event.getLockId()).isEqualTo("deleted");
		assertThat(event.getFencingToken()).isEqualTo(handle.fencingToken());
		assertThat(event.getReason()).contains("expired or owned by another instance");
		assertThat(handle.isHeld()).isFalse();
		assertThat(service.heldLocks()).isEmpty();

		LockHandle owner = next.lock("deleted", Duration.ZERO);
		String ownersKey = redis.command("GET", "distlock:{deleted}");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close).withMessageContaining("deleted");
		assertThat(redis.command("GET", "distlock:{deleted}")).isEqualTo(ownersKey);
		assertThat(owner.isHeld()).isTrue();
		owner.close();
		assertThat(LockServiceProbe.trackedLockCount(service)).isZero();
	}

	@Test
	void lossIsSignalledWhenTheLeaseEndsNotAtTheNextRenewalRetry() throws Exception {
		// Renewal every second; each attempt fails after the 300 ms command timeout and
		// is retried 500 ms later,
		// so the lease end (3 s after the last success) falls between two attempts, about
		// 400 ms before the next.
		Duration lease = Duration.ofSeconds(3);
		try (TcpProxy proxy = TcpProxy.to(redis.server());
				LockClients partitioned = new LockClients(proxy.host(), proxy.port(), COMMAND_TIMEOUT)) {
			LockEngine service = partitioned.newService(lease, Duration.ofMinutes(1));
			List<Long> signalledAt = new ArrayList<>();
			service.setLockLostListener((event) -> {
				synchronized (signalledAt) {
					signalledAt.add(System.nanoTime());
					signalledAt.notifyAll();
				}
			});
			LockHandle handle = service.lock("retried", Duration.ZERO);
			proxy.blackHole();
			// Any renewal reply already past the proxy has arrived by now; the deadline
			// no longer moves.
			TimeUnit.MILLISECONDS.sleep(100);
			long now = System.nanoTime();
			HeldLockInfo info = service.heldLocks().get(0);
			long deadline = now + info.leaseRemaining().toNanos();
			synchronized (signalledAt) {
				long until = System.nanoTime() + lease.plusSeconds(5).toNanos();
				while (signalledAt.isEmpty() && until - System.nanoTime() > 0) {
					TimeUnit.NANOSECONDS.timedWait(signalledAt, until - System.nanoTime());
				}
			}
			assertThat(signalledAt).as("lock-lost events").hasSize(1);
			long lateMillis = TimeUnit.NANOSECONDS.toMillis(signalledAt.get(0) - deadline);
			assertThat(lateMillis).as("ms from the end of the lease to the lock-lost event").isLessThan(200);
			assertThat(handle.isHeld()).isFalse();
			proxy.heal();
			assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
		}
	}

	@Test
	void aHolderSeesItsLeaseEndWithoutARoundTrip() {
		LockEngine service = this.clients.newService(Duration.ofSeconds(30), Duration.ofMinutes(1));
		LockHandle handle = service.tryLock("local-deadline", Duration.ZERO, Duration.ofMillis(400)).orElseThrow();
		redis.command("CONFIG", "RESETSTAT");
		await().atMost(Duration.ofSeconds(10)).until(() -> !handle.isHeld());
		assertThat(scriptCalls()).as("lock scripts run while isHeld() was asked").isZero();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
	}

	@Test
	void shutdownReleasesEveryLockAndStopsRenewal() throws Exception {
		Duration lease = Duration.ofMillis(900);
		LockEngine service = this.clients.newService(lease, Duration.ofMinutes(1));
		LockEngine next = this.clients.newService(lease, Duration.ofMinutes(1));
		List<LockHandle> handles = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			handles.add(service.lock("shutdown-" + i, Duration.ZERO));
		}
		handles.add(service.lock("shutdown-0", Duration.ZERO)); // reentrant
		handles.add(service.tryLock("shutdown-fixed", Duration.ZERO, Duration.ofMinutes(1)).orElseThrow());

		service.destroy();
		assertThat(redis.keys("distlock:*")).allMatch((key) -> key.endsWith(":fence") || key.endsWith(":released"));
		assertThat(handles).noneMatch(LockHandle::isHeld);
		redis.command("CONFIG", "RESETSTAT");
		await().during(lease).atMost(lease.multipliedBy(3)).until(() -> scriptCalls() == 0);

		List<LockHandle> owners = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			owners.add(next.lock("shutdown-" + i, Duration.ZERO));
		}
		List<String> ownersKeys = redis.keys("distlock:{shutdown-?}")
			.stream()
			.map((key) -> redis.command("GET", key))
			.toList();
		for (LockHandle handle : handles) {
			assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
		}
		assertThat(redis.keys("distlock:{shutdown-?}").stream().map((key) -> redis.command("GET", key)).toList())
			.isEqualTo(ownersKeys);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> service.lock("after-shutdown", Duration.ZERO))
			.withMessageContaining("shut down");
		for (LockHandle owner : owners) {
			owner.close();
		}
	}

	private static long scriptCalls() {
		return redis.command("INFO", "commandstats")
			.lines()
			.filter((line) -> line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:"))
			.mapToLong((line) -> Long.parseLong(line.replaceAll(".*calls=(\\d+),.*", "$1")))
			.sum();
	}

}
