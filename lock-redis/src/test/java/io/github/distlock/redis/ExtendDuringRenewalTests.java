package io.github.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code extend} and the watchdog change the lease of one lock; the local deadline must
 * never end later than the key's expiry in Redis, whichever finishes first, and an
 * extended auto-renewed lock stays renewed with its new lease.
 */
class ExtendDuringRenewalTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final ExecutorService extender = Executors.newSingleThreadExecutor();

	private ScriptCallsTemplate template;

	@AfterEach
	void stopExtender() throws InterruptedException {
		this.extender.shutdownNow();
		this.extender.awaitTermination(10, TimeUnit.SECONDS);
	}

	private LockEngine newService(Duration lease) {
		this.template = new ScriptCallsTemplate(this.clients.newConnectionFactory());
		LockEngine service = RedisEngines.blocking(this.template, RedisLockSettings.defaults().withLeaseTime(lease));
		service.isLocked("warm-up");
		return service;
	}

	@Test
	void anExtendRacingARenewalNeverLeavesTheLocalDeadlineLaterThanRedisExpiry() throws Exception {
		LockEngine service = newService(Duration.ofSeconds(3));
		try {
			LockHandle handle = service.lock("raced", Duration.ZERO);
			String key = "distlock:{raced}";
			// The renewal's PEXPIRE 3s has run in Redis; its thread is held before it
			// applies the lease.
			ScriptCallsTemplate.Hold renewal = this.template.holdNextRenewal(key);
			renewal.awaitReturned();
			AtomicReference<Thread> extendThread = new AtomicReference<>();
			CompletableFuture<Boolean> extended = CompletableFuture.supplyAsync(() -> {
				extendThread.set(Thread.currentThread());
				return handle.extend(Duration.ofMillis(500));
			}, this.extender);
			// Either the extend is done (it did not wait for the renewal), or it waits
			// for it locally.
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(5))
				.until(() -> extended.isDone() || waitsForALock(extendThread.get()));
			renewal.letGo();
			assertThat(extended.get(10, TimeUnit.SECONDS)).isTrue();
			// Watch past the 500 ms the key had after the extend, over several renewals.
			int before = this.template.renewals(key, 500);
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
				assertLocalDeadlineNotAfterRedisExpiry(service, handle, key);
				return this.template.renewals(key, 500) >= before + 8;
			});
			System.out.println("Renewals with the extended lease of 500 ms: " + this.template.renewals(key, 500));
			handle.close();
		}
		finally {
			service.destroy();
		}
	}

	@Test
	void anAutoRenewedLockExtendedToAShortLeaseIsRenewedWithIt() {
		LockEngine service = newService(Duration.ofSeconds(3));
		try {
			LockHandle handle = service.lock("short", Duration.ZERO);
			String key = "distlock:{short}";
			assertThat(handle.extend(Duration.ofMillis(600))).isTrue();
			assertThat(Long.parseLong(redis.command("PTTL", key))).isLessThanOrEqualTo(600);
			// Ten renewals of 600 ms every 200 ms: two seconds, more than three leases
			// (the unextended
			// lease of 3 s would be renewed only after one second).
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10)).until(() -> {
				assertThat(handle.isHeld()).isTrue();
				assertLocalDeadlineNotAfterRedisExpiry(service, handle, key);
				return this.template.renewals(key, 600) >= 10;
			});
			System.out.println("Renewals with the extended lease of 600 ms: " + this.template.renewals(key, 600));
			assertThat(service.tryLock("short", Duration.ZERO, null)).isPresent().get().satisfies((nested) -> {
				assertThat(nested.fencingToken()).isEqualTo(handle.fencingToken());
				nested.close();
			});
			handle.close();
			assertThat(service.isLocked("short")).isFalse();
		}
		finally {
			service.destroy();
		}
	}

	/**
	 * The local remaining lease, read before Redis's, may exceed it only by the time
	 * between the reads; and a handle that says held after Redis was read proves the key
	 * was ours when read.
	 */
	private void assertLocalDeadlineNotAfterRedisExpiry(LockEngine service, LockHandle handle, String key) {
		// Before the local read: everything between it and the reply of PTTL counts as
		// slack.
		// Read first: the actuator's view shows a token once it was read.
		long token = handle.fencingToken();
		long localReadAt = System.nanoTime();
		long localNanos = service.heldLocks()
			.stream()
			.filter((info) -> info.fencingToken() == token)
			.mapToLong((info) -> info.leaseRemaining().toNanos())
			.findFirst()
			.orElse(-1);
		long pttl = Long.parseLong(redis.command("PTTL", key));
		String value = redis.command("GET", key);
		long between = System.nanoTime() - localReadAt;
		boolean held = handle.isHeld();
		if (localNanos >= 0) {
			assertThat(localNanos).as("local remaining lease vs PTTL %d ms", pttl)
				.isLessThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(pttl + 2) + between);
		}
		if (held) {
			assertThat(value).as("value of the key of a lock that isHeld()").startsWith(this.template.owners.get(key));
		}
	}

	private static boolean waitsForALock(Thread thread) {
		return thread != null && io.github.distlock.core.EngineProbe.waitsForALeaseLock(thread);
	}

}
