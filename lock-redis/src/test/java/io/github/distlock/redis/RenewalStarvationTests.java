package io.github.distlock.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import io.github.distlock.core.LostLock;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nothing one lock's renewal or loss does may hold up the renewal of the others: not a
 * listener of lost locks ({@link LostLock}) that blocks or throws, not a renewal whose
 * reply is slow.
 */
class RenewalStarvationTests {

	/** Renewed every 333 ms. */
	private static final Duration LEASE = Duration.ofSeconds(1);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private ScriptCallsTemplate template;

	private LockEngine newService() {
		this.template = new ScriptCallsTemplate(this.clients.newConnectionFactory());
		LockEngine service = RedisEngines.blocking(this.template, RedisLockSettings.defaults().withLeaseTime(LEASE));
		service.isLocked("warm-up");
		return service;
	}

	@Test
	void aBlockedLockLostListenerDoesNotStopTheRenewalOfOtherLocks() throws Exception {
		LockEngine service = newService();
		CountDownLatch listening = new CountDownLatch(1);
		CountDownLatch unblock = new CountDownLatch(1);
		service.setLockLostListener((event) -> {
			listening.countDown();
			try {
				unblock.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		try {
			LockHandle survivor = service.lock("survivor", Duration.ZERO);
			LockHandle victim = service.lock("victim", Duration.ZERO);
			redis.command("SET", "distlock:{victim}", "someone-else", "PX", "60000");
			assertThat(listening.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(victim.isHeld()).isFalse();
			assertRenewedWhileHeld(survivor, "distlock:{survivor}");
			assertThat(unblock.getCount()).isOne();
			survivor.close();
		}
		finally {
			unblock.countDown();
			service.destroy();
		}
	}

	@Test
	void aThrowingLockLostListenerIsNoRenewalFailure() {
		LockEngine service = newService();
		AtomicInteger notified = new AtomicInteger();
		service.setLockLostListener((event) -> {
			notified.incrementAndGet();
			throw new IllegalStateException("listener failed");
		});
		try {
			LockHandle survivor = service.lock("survivor", Duration.ZERO);
			LockHandle victim = service.lock("victim", Duration.ZERO);
			redis.command("SET", "distlock:{victim}", "someone-else", "PX", "60000");
			await().atMost(Duration.ofSeconds(10)).until(() -> notified.get() == 1);
			assertRenewedWhileHeld(survivor, "distlock:{survivor}");
			assertThat(victim.isHeld()).isFalse();
			assertThat(service.locksLost()).isOne();
			assertThat(service.renewalFailures()).isZero();
			assertThat(notified).hasValue(1);
			survivor.close();
		}
		finally {
			service.destroy();
		}
	}

	@Test
	void aSlowRenewalDoesNotDelayTheRenewalOfOtherLocks() throws Exception {
		LockEngine service = newService();
		ScriptCallsTemplate.Hold slow = this.template.holdNextRenewal("distlock:{slow}");
		try {
			LockHandle stuck = service.lock("slow", Duration.ZERO);
			LockHandle survivor = service.lock("survivor", Duration.ZERO);
			slow.awaitReturned();
			assertRenewedWhileHeld(survivor, "distlock:{survivor}");
			survivor.close();
			slow.letGo();
			await().atMost(Duration.ofSeconds(10)).until(() -> !stuck.isHeld());
		}
		finally {
			slow.letGo();
			service.destroy();
		}
	}

	/**
	 * Ten more renewals (over three leases) during which the lock stays held and ours in
	 * Redis.
	 */
	private void assertRenewedWhileHeld(LockHandle handle, String key) {
		int before = this.template.renewals(key, LEASE.toMillis());
		await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20)).until(() -> {
			assertThat(handle.isHeld()).as("%s held", key).isTrue();
			assertThat(redis.command("GET", key)).startsWith(this.template.owners.get(key));
			return this.template.renewals(key, LEASE.toMillis()) >= before + 10;
		});
		System.out.println("Renewals of " + key + ": " + (this.template.renewals(key, LEASE.toMillis()) - before));
	}

}
