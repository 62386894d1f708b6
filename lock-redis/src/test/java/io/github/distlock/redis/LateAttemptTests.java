package io.github.distlock.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.store.AcquireReply;
import io.github.distlock.store.ForwardingLockStore;
import io.github.distlock.store.HeldByOther;
import io.github.distlock.store.LockStore;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A copy of a waiter's queued attempt that Redis applies after the waiter's acquisition
 * ended (it gave up and withdrew) holds nothing: it neither queues the departed owner,
 * which the next release would grant the lock to, nor takes a free lock for it. Such a
 * copy comes from a command sent on one connection and its clean-up on another (a
 * connection pool, replica-acknowledged writes), or replayed by the client; here it is
 * sent again by the test, as Redis would apply it.
 * <p>
 * Before, the copy re-queued the owner (the next release granted the lock to it; a third
 * instance's immediate attempt was refused) and, on a free lock, took it for the whole
 * lease asked for (both tests failed).
 */
class LateAttemptTests {

	private static final String LOCK_ID = "late-attempt";

	private static final String KEY = "distlock:{" + LOCK_ID + "}";

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final List<LockEngine> engines = new ArrayList<>();

	@AfterEach
	void destroy() {
		this.engines.forEach(LockEngine::destroy);
	}

	@Test
	void aLateCopyOfAnAbandonedQueuedAttemptQueuesNobody() {
		LockEngine holding = engine(store());
		Recording recorded = new Recording(store());
		LockEngine gaveUp = engine(recorded);
		LockEngine third = engine(store());
		LockHandle held = holding.tryLock(LOCK_ID, Duration.ZERO, null).orElseThrow();
		assertThat(gaveUp.tryLock(LOCK_ID, Duration.ofMillis(1500), null)).isEmpty();
		await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(redis.command("HLEN", KEY + ":waiting")));
		assertThat(recorded.last).as("a queued attempt was sent").isNotNull();

		assertThat(recorded.applyAgain()).isInstanceOf(HeldByOther.class);

		assertThat(redis.command("HLEN", KEY + ":waiting")).isEqualTo("0");
		held.close();
		Optional<LockHandle> next = third.tryLock(LOCK_ID, Duration.ZERO, null);
		assertThat(next).as("the released lock, not granted to the departed waiter").isPresent();
		next.get().close();
	}

	@Test
	void aLateCopyOfAnAbandonedQueuedAttemptTakesNoFreeLock() {
		LockEngine holding = engine(store());
		Recording recorded = new Recording(store());
		LockEngine gaveUp = engine(recorded);
		LockEngine third = engine(store());
		LockHandle held = holding.tryLock(LOCK_ID, Duration.ZERO, null).orElseThrow();
		assertThat(gaveUp.tryLock(LOCK_ID, Duration.ofMillis(1500), null)).isEmpty();
		await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(redis.command("HLEN", KEY + ":waiting")));
		held.close();
		assertThat(redis.command("EXISTS", KEY)).isEqualTo("0");

		assertThat(recorded.applyAgain()).isInstanceOf(HeldByOther.class);

		assertThat(redis.command("EXISTS", KEY)).as("the free lock, not taken by the copy").isEqualTo("0");
		Optional<LockHandle> next = third.tryLock(LOCK_ID, Duration.ZERO, null);
		assertThat(next).isPresent();
		next.get().close();
	}

	private LockStore store() {
		return new RedisLockStore(new StringRedisTemplate(this.clients.newConnectionFactory()),
				RedisLockSettings.defaults());
	}

	private LockEngine engine(LockStore store) {
		LockEngine engine = new LockEngine(store, RedisLockSettings.defaults().leaseTime());
		this.engines.add(engine);
		return engine;
	}

	/** Records the last queued attempt, to apply a copy of it later. */
	private static final class Recording extends ForwardingLockStore {

		volatile Object[] last;

		Recording(LockStore delegate) {
			super(delegate);
		}

		@Override
		public AcquireReply acquire(String key, String owner, long leaseMillis, long waitMillis) {
			if (waitMillis > 0) {
				this.last = new Object[] { key, owner, leaseMillis, waitMillis };
			}
			return super.acquire(key, owner, leaseMillis, waitMillis);
		}

		AcquireReply applyAgain() {
			Object[] call = this.last;
			return super.acquire((String) call[0], (String) call[1], (Long) call[2], (Long) call[3]);
		}

	}

}
