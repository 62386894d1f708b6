package io.github.distlock.aspectj;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.distlock.testsupport.ClientJvm;
import io.github.distlock.testsupport.Hold;
import io.github.distlock.testsupport.OverlapChecker;
import io.github.distlock.testsupport.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances, each a JVM of its own (the aspect is one per class loader),
 * on one Redis: released together, each increments a Redis counter {@value #ITERATIONS}
 * times through a locked method it reaches through {@code this}. The holds must never
 * overlap, the fencing tokens must increase in acquisition order and no increment may be
 * lost.
 */
abstract class TwoInstanceExclusion {

	static final int ITERATIONS = 200;

	private static final Duration STARTUP = Duration.ofMinutes(3);

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	/** The {@link CounterWork} class the instances lock through. */
	abstract Class<? extends CounterWork> counterClass();

	/** What the instances' JVMs need for their weaving. */
	abstract String[] jvmArgs();

	@Test
	void aSelfInvokedLockedMethodExcludesAcrossTwoInstances() {
		try (ClientJvm first = start("first"); ClientJvm second = start("second")) {
			first.awaitLine("READY"::equals, STARTUP);
			second.awaitLine("READY"::equals, STARTUP);
			first.send("go");
			second.send("go");
			first.awaitLine((line) -> line.startsWith("DONE"), STARTUP);
			second.awaitLine((line) -> line.startsWith("DONE"), STARTUP);
			List<Hold> holds = new ArrayList<>();
			for (ClientJvm instance : List.of(first, second)) {
				instance.lines().stream().filter(Hold::isHold).map(Hold::parse).forEach(holds::add);
			}
			long counter = Long.parseLong(redis.command("GET", CounterWork.COUNTER));
			List<OverlapChecker.Overlap> overlaps = OverlapChecker.overlaps(holds);
			List<OverlapChecker.Overlap> regressions = OverlapChecker.tokenRegressions(holds);
			long unlocked = holds.stream().filter((hold) -> hold.token() < 0).count();
			System.out.printf(
					"%s: %d holds by two instances, %d without a lock handle, %d overlapping,"
							+ " %d token regressions, counter %d of %d%n",
					getClass().getSimpleName(), holds.size(), unlocked, overlaps.size(), regressions.size(), counter,
					2 * ITERATIONS);
			assertThat(holds).hasSize(2 * ITERATIONS);
			assertThat(unlocked).isZero();
			assertThat(overlaps).isEmpty();
			assertThat(regressions).isEmpty();
			assertThat(counter).isEqualTo(2 * ITERATIONS);
		}
	}

	private ClientJvm start(String name) {
		return ClientJvm.builder(ExclusionInstance.class)
			.name(name)
			.jvmArgs(jvmArgs())
			.args("--port=" + redis.port(), "--counter=" + counterClass().getName(), "--name=" + name,
					"--iterations=" + ITERATIONS)
			.start();
	}

}
