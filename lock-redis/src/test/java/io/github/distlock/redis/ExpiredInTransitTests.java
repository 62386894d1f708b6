package io.github.distlock.redis;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.github.distlock.store.Acquired;
import io.github.distlock.store.Unknown;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every acquire script refuses, changing nothing, an acquire that reaches Redis after its
 * {@code notAfter} (issue 39, 2; see {@link LockScripts#refuseLate}), and the client
 * takes that reply for an unknown outcome, measuring the server's clock again.
 */
class ExpiredInTransitTests {

	private static final String KEY = "distlock:{in-transit}";

	/** A server time long past: 1 ms after the epoch. */
	private static final String PAST = "1";

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@AutoClose
	private final RedisLockClients clients = new RedisLockClients(redis.server());

	private final RedisLockCommands commands = new RedisLockCommands(
			new StringRedisTemplate(this.clients.newConnectionFactory()), "distlock:released", 60_000);

	@Test
	void anExclusiveAcquireAfterItsDeadlineChangesNothing() {
		assertExpiredInTransit((notAfter) -> this.commands.acquireCall(KEY, "owner-a", 30_000, true, notAfter));
	}

	@Test
	void aQueuedAcquireAfterItsDeadlineChangesNothing() {
		assertExpiredInTransit(
				(notAfter) -> this.commands.acquireQueuedCall(KEY, "owner-a", 30_000, 5_000, true, notAfter));
	}

	@Test
	void aFairAcquireAfterItsDeadlineChangesNothing() {
		assertExpiredInTransit((notAfter) -> this.commands.acquireFairCall(KEY, "owner-a", 30_000, 5_000, notAfter));
	}

	@Test
	void aSharedAcquireAfterItsDeadlineChangesNothing() {
		assertExpiredInTransit((notAfter) -> this.commands.acquireSharedCall(KEY, "owner-a", 0, 30_000, notAfter));
		assertExpiredInTransit((notAfter) -> this.commands.acquireSharedCall(KEY, "owner-a", 3, 30_000, notAfter));
	}

	@Test
	void aQueuedAcquireAfterItsDeadlineDoesNotQueueBehindAHolder() {
		assertThat(this.commands.acquire(KEY, "holder", 30_000)).isGreaterThanOrEqualTo(0);
		List<String> before = redis.server().keys("*");
		String value = redis.command("GET", KEY);
		assertThat(
				this.commands.scripts().run(this.commands.acquireQueuedCall(KEY, "owner-a", 30_000, 5_000, true, PAST)))
			.isEqualTo(LockScripts.EXPIRED_IN_TRANSIT);
		assertThat(redis.server().keys("*")).containsExactlyInAnyOrderElementsOf(before);
		assertThat(redis.command("GET", KEY)).as("not flagged contended").isEqualTo(value);
	}

	@Test
	void theReplyIsAnUnknownOutcomeAndTheServerClockIsMeasuredAgain() {
		assertThat(ScriptReplies.acquireReply(LockScripts.EXPIRED_IN_TRANSIT)).isInstanceOf(Unknown.class);
		assertThat(ScriptReplies.sharedAcquireReply(LockScripts.EXPIRED_IN_TRANSIT, KEY, 0, () -> -1))
			.isInstanceOf(Unknown.class);
		assertThat(this.commands.notAfter()).isNotNull();
		assertThat(this.commands.notAfterIfKnown()).as("measured once").isNotNull();
		this.commands.settled(LockScripts.EXPIRED_IN_TRANSIT);
		assertThat(this.commands.notAfterIfKnown()).as("measured again before the next acquire").isNull();
	}

	@Test
	void theDeadlineIsTheReceiptRetentionAheadOfTheServerClock() {
		String[] time = redis.command("TIME").split("\n");
		long server = Long.parseLong(time[0]) * 1000 + Long.parseLong(time[1]) / 1000;
		long notAfter = Long.parseLong(this.commands.notAfter());
		// A 2 s command timeout: receipts live 4 s. The offset is underestimated by a
		// round trip at most.
		assertThat(notAfter - server).isBetween(3_000L, 5_000L);
	}

	@Test
	void theServerClockIsMeasuredOnceUntilAnExpiredReplyOrUntilTheMeasurementIsOld() {
		AtomicInteger measured = new AtomicInteger();
		AcquireDeadline deadline = new AcquireDeadline(() -> {
			measured.incrementAndGet();
			return 1_000_000;
		}, 2_000);
		assertThat(deadline.notAfterIfMeasured()).as("not measured yet").isNull();
		long first = Long.parseLong(deadline.notAfter());
		deadline.notAfter();
		assertThat(deadline.notAfterIfMeasured()).isNotNull();
		assertThat(measured).hasValue(1);
		// The server said 1,000,000 ms before the reply arrived: a lower bound.
		assertThat(first).isBetween(1_000_000L + 2_000 - 1, 1_000_000L + 2_000 + 1_000);
		deadline.expiredInTransit();
		assertThat(deadline.notAfterIfMeasured()).isNull();
		deadline.notAfter();
		assertThat(measured).hasValue(2);

		AcquireDeadline refreshed = new AcquireDeadline(() -> {
			measured.incrementAndGet();
			return 1_000_000;
		}, 2_000, -1);
		refreshed.notAfter();
		refreshed.notAfter();
		assertThat(refreshed.notAfterIfMeasured()).as("too old at once").isNull();
		assertThat(measured).hasValue(4);
	}

	private void assertExpiredInTransit(Function<String, RedisLockCommands.ScriptCall> call) {
		redis.server().flushAll();
		assertThat(this.commands.scripts().run(call.apply(PAST))).isEqualTo(LockScripts.EXPIRED_IN_TRANSIT);
		assertThat(redis.server().keys("*")).as("nothing written").isEmpty();
		long reply = this.commands.scripts().run(call.apply(this.commands.notAfter()));
		assertThat(ScriptReplies.acquireReply(reply)).as("acquired in time").isInstanceOf(Acquired.class);
	}

}
