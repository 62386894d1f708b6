package io.github.distlock.simulation;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.github.distlock.redis.LateCopyScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The power of the simulation, shown: each defect fixed by the engine reviews and by
 * issue 25, put back one at a time ({@link Mutant}), is found within {@value #MAX_SEEDS}
 * seeds, except those the simulation cannot reach (said why). Each line printed is a row
 * of the table in {@code docs/simulation.md}. The seeds are the same on every run: a
 * world is a function of its seed and the code.
 */
class MutantsTests {

	private static final int MAX_SEEDS = 6000;

	@ParameterizedTest(name = "{0}")
	@EnumSource(Mutant.class)
	@Timeout(value = 10, unit = TimeUnit.MINUTES)
	void theSimulationFindsTheDefect(Mutant mutant) throws Exception {
		String only = System.getProperty("simulation.mutants", "");
		assumeTrue(only.isBlank() || List.of(only.split(",")).contains(mutant.name()),
				() -> "only " + only + " (-Dsimulation.mutants)");
		assumeTrue(mutant.notFindable() == null || Boolean.getBoolean("simulation.allMutants"),
				() -> mutant.title() + ": " + mutant.notFindable());
		Mutants.Found found = Mutants.find(mutant, MAX_SEEDS);
		System.out.printf("[mutants] | %s | %s | %.1f s | %s |%n", mutant.title(),
				(found.seed() > 0) ? "seed " + found.seed() : "not within " + MAX_SEEDS + " seeds",
				found.millis() / 1000.0, found.violation());
		assertThat(found.failingWithout()).as("seeds that fail on the code as it is, without %s", mutant.title())
			.isEmpty();
		if (mutant.notFindable() == null) {
			assertThat(found.seed()).as("%s not found within %d seeds", mutant.title(), MAX_SEEDS).isPositive();
		}
	}

	/**
	 * The reactive false loss of issue 39, 3, which the simulation cannot reach (it
	 * drives the blocking engine only): {@link ReactiveExtendScenario}'s timeline keeps
	 * the hold on the code as it is, and finds the defect put back.
	 */
	@Test
	@Timeout(value = 2, unit = TimeUnit.MINUTES)
	void theScenarioFindsTheReactiveExtendPutBack() throws Exception {
		long start = System.nanoTime();
		assertThat(ReactiveExtendScenario.run()).as("the scenario on the code as it is").isNull();
		Object found = Mutants.runScenario(Mutant.REACTIVE_EXTEND_UNANSWERED, ReactiveExtendScenario.class, "run");
		System.out.printf("[mutants] | %s | found by ReactiveExtendScenario | %.1f s | %s |%n",
				Mutant.REACTIVE_EXTEND_UNANSWERED.title(), (System.nanoTime() - start) / 1e9, found);
		assertThat(found).as("the scenario with the defect put back").isNotNull();
	}

	/**
	 * The ghost lock of a late acquire copy (issue 39, 2), which the simulation cannot
	 * reach (its nodes run no Lua, with one connection per client):
	 * {@link LateCopyScenario}, on a master, a replica and a proxy of its own, leaves no
	 * ghost on the code as it is, and finds one with the defect put back.
	 */
	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void theScenarioFindsTheLateCopyPutBack() throws Exception {
		long start = System.nanoTime();
		assertThat(LateCopyScenario.run()).as("the scenario on the code as it is").isNull();
		// Lettuce's JFR events fail to be created in the mutant's class loader ("argument
		// type mismatch"), which fails every connection: off for the mutant's clients.
		String jfr = System.setProperty("io.lettuce.core.jfr", "false");
		Object found;
		try {
			found = Mutants.runScenario(Mutant.LATE_ACQUIRE_COPY, LateCopyScenario.class, "run");
		}
		finally {
			if (jfr != null) {
				System.setProperty("io.lettuce.core.jfr", jfr);
			}
			else {
				System.clearProperty("io.lettuce.core.jfr");
			}
		}
		System.out.printf("[mutants] | %s | found by LateCopyScenario | %.1f s | %s |%n",
				Mutant.LATE_ACQUIRE_COPY.title(), (System.nanoTime() - start) / 1e9, found);
		assertThat(found).as("the scenario with the defect put back").isNotNull();
	}

}
