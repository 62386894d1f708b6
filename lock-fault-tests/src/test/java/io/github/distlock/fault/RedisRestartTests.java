package io.github.distlock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.context.LockLostEvent;
import io.github.distlock.LockLostException;
import io.github.distlock.redis.LockServiceProbe;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 3: Redis killed and restarted without persistence while locks are held. Every
 * handle reports the lock lost, and no renewal ever re-creates a lock key: neither one
 * that is now someone else's, nor a free one.
 */
class RedisRestartTests {

	static final Duration LEASE = Duration.ofMillis(1500);

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	static final int LOCKS = 6;

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void locksHeldAcrossARestartWithoutDataAreReportedLostAndNeverRecreated() throws Exception {
		try (LockClients clients = new LockClients(redis.host(), redis.port(), COMMAND_TIMEOUT)) {
			LockEngine before = clients.newService(LEASE, Duration.ofMinutes(1));
			LockEngine after = clients.newService(LEASE, Duration.ofMinutes(1));
			LockLostEvents events = LockLostEvents.of(before);
			List<LockHandle> handles = new ArrayList<>();
			for (int i = 0; i < LOCKS; i++) {
				handles.add(before.lock("restarted-" + i, Duration.ZERO));
			}

			redis.server().kill();
			redis.server().restartEmpty();

			// The first half is taken by another instance at once; the second half stays
			// free.
			Map<String, LockHandle> newOwners = new HashMap<>();
			Map<String, String> newOwnerKeys = new HashMap<>();
			for (int i = 0; i < LOCKS / 2; i++) {
				String id = "restarted-" + i;
				LockHandle owner = after.lock(id, Duration.ofSeconds(10));
				assertThat(owner.fencingToken()).as("token after the restart")
					.isGreaterThan(handles.get(i).fencingToken());
				newOwners.put(id, owner);
				newOwnerKeys.put(id, redis.command("GET", key(id)));
			}

			List<String> lostIds = new ArrayList<>();
			for (int i = 0; i < LOCKS; i++) {
				LockLostEvent event = events.next(LEASE.plusSeconds(5));
				assertThat(event).as("lock-lost event %d of %d", i + 1, LOCKS).isNotNull();
				lostIds.add(event.getLockId());
			}
			assertThat(lostIds)
				.containsExactlyInAnyOrder(handles.stream().map(LockHandle::lockId).toArray(String[]::new));
			assertThat(handles).noneMatch(LockHandle::isHeld);
			assertThat(before.locksLost()).isEqualTo(LOCKS);

			// Several renewal intervals later, nothing of the old holder came back.
			await().during(LEASE).atMost(LEASE.plusSeconds(5)).until(() -> untouched(newOwnerKeys));
			for (LockHandle handle : handles) {
				assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::close);
			}
			assertThat(untouched(newOwnerKeys)).isTrue();
			assertThat(events.pending()).isEmpty();
			assertThat(before.heldLocks()).isEmpty();
			assertThat(LockServiceProbe.trackedLockCount(before)).isZero();
			for (LockHandle owner : newOwners.values()) {
				assertThat(owner.isHeld()).isTrue();
				owner.close();
			}
			assertThat(redis.keys("distlock:*")).allMatch((key) -> key.endsWith(":fence") || key.endsWith(":released"));
		}
	}

	/**
	 * Whether the new owners' keys are as they left them and the free locks' keys do not
	 * exist.
	 */
	private static boolean untouched(Map<String, String> newOwnerKeys) {
		for (int i = 0; i < LOCKS; i++) {
			String id = "restarted-" + i;
			String value = redis.command("GET", key(id));
			if ((i < LOCKS / 2) ? !newOwnerKeys.get(id).equals(value) : value != null) {
				return false;
			}
		}
		return true;
	}

	private static String key(String id) {
		return "distlock:{" + id + "}";
	}

}
