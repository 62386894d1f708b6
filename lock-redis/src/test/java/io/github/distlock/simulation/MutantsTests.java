package io.github.distlock.simulation;

import java.util.concurrent.TimeUnit;

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
		assumeTrue(mutant.notFindable() == null || Boolean.getBoolean("simulation.allMutants"),
				() -> mutant.title() + ": " + mutant.notFindable());
		Mutants.Found found = Mutants.find(mutant, MAX_SEEDS);
		System.out.printf("[mutants] | %s | %s | %.1f s | %s |%n", mutant.title(),
				(found.seed() > 0) ? "seed " + found.seed() : "not within " + MAX_SEEDS + " seeds",
				found.millis() / 1000.0, found.violation());
		if (mutant.notFindable() == null) {
			assertThat(found.seed()).as("%s not found within %d seeds", mutant.title(), MAX_SEEDS).isPositive();
		}
	}

}
