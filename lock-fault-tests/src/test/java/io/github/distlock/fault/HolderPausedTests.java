package io.github.distlock.fault;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.github.distlock.LockHandle;
import io.github.distlock.core.LockEngine;
import io.github.distlock.testsupport.ClientJvm;
import io.github.distlock.testsupport.FencedResource;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 2: a holder process frozen with SIGSTOP past its lease, then resumed, with
 * fencing on. Another client acquires meanwhile; every write the resumed holder sends is
 * rejected as stale; its {@code close()} throws {@code LockLostException}; the other
 * owner's key is intact.
 * <p>
 * The holder writes every 10 ms without asking {@code isHeld()} first: the worst case of
 * a write already on its way when the process froze. Only the fencing token stops it.
 */
class HolderPausedTests {

	static final int CYCLES = 50;

	/** The paused holder's lease: short, so that a pause outlasts it quickly. */
	static final Duration LEASE = Duration.ofSeconds(1);

	/**
	 * The contender's lease, renewed by this JVM while the test checks that the resumed
	 * holder did not touch the contender's key. Not part of the scenario, so not short:
	 * with the holder's 1 s lease, a stall of this JVM longer than two thirds of a second
	 * (a loaded machine) lets the contender's own lock expire, and the key check fails.
	 */
	static final Duration CONTENDER_LEASE = Duration.ofSeconds(30);

	static final Duration COMMAND_TIMEOUT = Duration.ofMillis(500);

	/** Rejected writes of the resumed holder to see before telling it to close. */
	static final int STALE_WRITES = 3;

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	@RegisterExtension
	static final RedisServerExtension fence = new RedisServerExtension().withoutFlushing();

	@Test
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void aResumedHolderIsFencedOffAndItsCloseThrowsWithoutTouchingTheNewOwner() throws Exception {
		long staleWrites = 0;
		long lostEvents = 0;
		try (ClientJvms jvms = new ClientJvms(redis.server(), fence.server(), LEASE, COMMAND_TIMEOUT);
				LockClients clients = new LockClients(redis.host(), redis.port(), COMMAND_TIMEOUT);
				FencedResource resource = FencedResource.connect(fence.server())) {
			LockEngine contender = clients.newService(CONTENDER_LEASE, Duration.ofSeconds(3));
			ClientJvm holder = ClientJvms.awaitReady(jvms.start("paused-holder", "holder"));
			for (int cycle = 0; cycle < CYCLES; cycle++) {
				String id = "paused-" + cycle;
				String resourceName = "resource-" + cycle;
				String key = "distlock:{" + id + "}";
				int from = holder.lines().size();
				holder.send("acquire " + id + " " + resourceName);
				long holderToken = Long.parseLong(holder
					.awaitLine(from, (line) -> line.startsWith("ACQUIRED " + id + " "), Duration.ofSeconds(30))
					.split(" ")[2]);
				holder.awaitLine(from, ("WRITE " + holderToken + " accepted")::equals, Duration.ofSeconds(30));

				holder.pause();
				Optional<LockHandle> taken = contender.tryLock(id, LEASE.multipliedBy(2).plusSeconds(5), null);
				assertThat(taken).as("cycle %d: lock taken over while the holder is frozen", cycle).isPresent();
				LockHandle owner = taken.get();
				assertThat(owner.fencingToken()).isGreaterThan(holderToken);
				assertThat(resource.write(resourceName, owner.fencingToken(), "contender")).isTrue();
				long acceptedBeforeResume = resource.accepted(resourceName);
				String ownersKeyValue = redis.command("GET", key);

				int resumedAt = holder.lines().size();
				holder.resume();
				String rejected = "WRITE " + holderToken + " rejected";
				await().atMost(Duration.ofSeconds(30))
					.until(() -> holder.lines()
						.stream()
						.skip(resumedAt)
						.filter(rejected::equals)
						.count() >= STALE_WRITES);
				holder.send("close");
				String heldAtClose = holder.awaitLine(resumedAt, (line) -> line.startsWith("HELD_AT_CLOSE"),
						Duration.ofSeconds(30));
				String closed = holder.awaitLine(resumedAt, (line) -> line.startsWith("CLOSED"),
						Duration.ofSeconds(30));

				assertThat(heldAtClose).as("cycle %d: isHeld() of the resumed holder", cycle)
					.isEqualTo("HELD_AT_CLOSE false");
				assertThat(closed).as("cycle %d: close() of the resumed holder", cycle)
					.isEqualTo("CLOSED LockLostException");
				assertThat(resource.accepted(resourceName)).as("cycle %d: writes accepted after the take-over", cycle)
					.isEqualTo(acceptedBeforeResume);
				assertThat(resource.value(resourceName)).isEqualTo("contender");
				assertThat(resource.rejected(resourceName)).isGreaterThanOrEqualTo(STALE_WRITES);
				assertThat(redis.command("GET", key)).as("cycle %d: the new owner's key", cycle)
					.isEqualTo(ownersKeyValue);
				assertThat(owner.isHeld()).isTrue();
				owner.close();
				staleWrites += resource.rejected(resourceName);
				lostEvents += holder.lines()
					.subList(resumedAt, holder.lines().size())
					.stream()
					.filter((line) -> line.startsWith("LOST_EVENT " + id + " "))
					.count();
			}
		}
		System.out.printf("scenario 2: %d pauses past the lease, %d stale writes of resumed holders, all rejected; "
				+ "%d lock-lost events seen before close%n", CYCLES, staleWrites, lostEvents);
	}

}
