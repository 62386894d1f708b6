package io.github.distlock.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.distlock.testsupport.ClientJvm;
import io.github.distlock.testsupport.FencedResource;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenario 10: 8 client JVMs × 8 threads, 20,000 acquisitions of a few hot ids and many
 * cold ones, each holder incrementing its id's counter in a {@link FencedResource} by an
 * unprotected read-modify-write. No two holds overlap, tokens only grow, no update is
 * lost or rejected, no lock key is ever seen without a TTL, nothing is left in Redis
 * afterwards and every client's bookkeeping is back to empty.
 */
class SoakTests {

	static final int JVMS = 8;

	static final int THREADS = 8;

	static final int ACQUISITIONS = 20_000;

	static final int HOT_IDS = 4;

	static final int COLD_IDS = 2_000;

	/** Percent of acquisitions that go to a hot id. */
	static final int HOT_SHARE = 30;

	/**
	 * No faults here: production-like values, so that a loaded machine does not fail the
	 * run spuriously.
	 */
	static final Duration LEASE = Duration.ofSeconds(5);

	static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension().withoutFlushing();

	@RegisterExtension
	static final RedisServerExtension fence = new RedisServerExtension().withoutFlushing();

	@Test
	@Timeout(value = 6, unit = TimeUnit.MINUTES)
	void manyJvmsAndThreadsNeverOverlapNorLoseAnUpdate() {
		List<Hold> holds = new ArrayList<>();
		List<String> problems = new ArrayList<>();
		long startedAt;
		long finishedAt;
		try (ClientJvms jvms = new ClientJvms(redis.server(), fence.server(), LEASE, COMMAND_TIMEOUT);
				TtlWatch ttlWatch = TtlWatch.start(redis.server())) {
			List<ClientJvm> clients = new ArrayList<>();
			for (int i = 0; i < JVMS; i++) {
				int share = ACQUISITIONS / JVMS + ((i < ACQUISITIONS % JVMS) ? 1 : 0);
				clients.add(jvms.start("soak" + i, "soak", "--threads=" + THREADS, "--acquisitions=" + share,
						"--hot=" + HOT_IDS, "--cold=" + COLD_IDS, "--hotShare=" + HOT_SHARE));
			}
			clients.forEach(ClientJvms::awaitReady);
			startedAt = System.nanoTime();
			clients.forEach((client) -> client.send("go"));
			for (ClientJvm client : clients) {
				client.awaitLine("DONE"::equals, Duration.ofMinutes(5));
				assertThat(client.awaitExit(Duration.ofSeconds(60))).as("exit code of %s", client).isZero();
			}
			finishedAt = System.nanoTime();
			for (ClientJvm client : clients) {
				for (String line : client.lines()) {
					if (Hold.isHold(line)) {
						holds.add(Hold.parse(line));
					}
					else if (line.startsWith("FAILURE") || line.startsWith("REJECTED") || line.startsWith("LOST_EVENT")
							|| (line.startsWith("BOOKKEEPING") && !line.equals("BOOKKEEPING tracked=0 held=0"))) {
						problems.add(client.name() + ": " + line);
					}
				}
			}
			assertThat(ttlWatch.samples()).isPositive();
			assertThat(ttlWatch.keysWithoutTtl()).as("lock keys seen without expiry").isEmpty();
		}
		assertThat(problems).as("failures, rejected writes, lost locks, leftover bookkeeping").isEmpty();
		assertThat(holds).hasSize(ACQUISITIONS);
		assertThat(OverlapChecker.overlaps(holds)).as("overlapping holds").isEmpty();
		assertThat(OverlapChecker.tokenRegressions(holds)).as("fencing tokens not increasing").isEmpty();

		Map<String, Long> holdsPerId = holds.stream()
			.collect(Collectors.groupingBy(Hold::lockId, Collectors.counting()));
		try (FencedResource resource = FencedResource.connect(fence.server())) {
			holdsPerId.forEach((id, count) -> {
				assertThat(resource.value(id)).as("counter of '%s' (lost updates)", id).isEqualTo(Long.toString(count));
				assertThat(resource.rejected(id)).as("stale writes to '%s'", id).isZero();
			});
		}
		assertThat(redis.keys("distlock:*")).as("lock keys left")
			.allMatch((key) -> key.endsWith(":fence") || key.endsWith(":released"));
		// Fence keys and release receipts are kept for the retention (5 s) after the last
		// acquisition
		// and release, then nothing is left.
		await().atMost(Duration.ofSeconds(20)).until(() -> redis.keys("distlock:*").isEmpty());
		System.out.printf(
				"scenario 10: %d JVMs x %d threads, %d acquisitions (%d on %d hot ids) in %d ms, 0 overlaps, "
						+ "0 lost updates%n",
				JVMS, THREADS, holds.size(), holds.stream().filter((hold) -> hold.lockId().startsWith("hot-")).count(),
				HOT_IDS, TimeUnit.NANOSECONDS.toMillis(finishedAt - startedAt));
	}

}
