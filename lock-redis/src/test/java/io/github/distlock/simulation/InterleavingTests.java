package io.github.distlock.simulation;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The interleavings of threads of one instance that the simulation cannot split, explored
 * by Lincheck's model checker ({@link HandOverScenario}): on the code as it is, no
 * interleaving leaves the lock held; with issue 10's ghost hand-over put back
 * ({@link Mutant#GHOST_HAND_OVER}, compiled and run in a JVM of its own), the checker
 * finds one that does.
 * <p>
 * Runs in {@code lock-redis}'s test run, on the JDK that runs Maven: Lincheck 3.7
 * instruments the JDK's own classes and reads class files up to Java 24, and the module's
 * other tests run on JDK 25.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InterleavingTests {

	private static final int INVOCATIONS = 2000;

	/**
	 * The mutant's model check, in a JVM of its own, started before the tests so that it
	 * runs beside the check of the code as it is (each one a single busy thread: about
	 * 160 s instead of 275 s one after the other on two cores).
	 */
	private static Path work;

	private static Path output;

	private static Process mutant;

	@BeforeAll
	static void startTheMutantsModelCheck() throws Exception {
		if (!runsHere()) {
			return;
		}
		work = Files.createTempDirectory("distlock-mutant-");
		Path classes = Mutants.compiled(Mutant.GHOST_HAND_OVER, work);
		output = work.resolve("output.txt");
		mutant = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				classes + File.pathSeparator + Mutants.testClassPath(), HandOverScenario.class.getName(),
				Integer.toString(INVOCATIONS))
			.redirectErrorStream(true)
			.redirectOutput(output.toFile())
			.start();
	}

	@AfterAll
	static void stopTheMutantsModelCheck() {
		if (mutant != null) {
			mutant.destroyForcibly();
		}
		if (work != null) {
			Mutants.delete(work);
		}
	}

	@BeforeEach
	void onlyInItsExecution() {
		assumeTrue(Boolean.getBoolean("distlock.lincheck"),
				"runs in lock-redis's tests on the JDK that runs Maven (17 to 24)");
		assumeTrue(Runtime.version().feature() <= 24, () -> "Lincheck 3.7 cannot instrument Java "
				+ Runtime.version().feature() + " classes: run Maven on a JDK from 17 to 24");
	}

	private static boolean runsHere() {
		return Boolean.getBoolean("distlock.lincheck") && Runtime.version().feature() <= 24;
	}

	@Test
	@Order(1)
	@Timeout(value = 5, unit = TimeUnit.MINUTES)
	void noInterleavingHandsTheLockToAWaiterWhoseAttemptFailed() {
		HandOverScenario.check(INVOCATIONS);
	}

	@Test
	@Order(2)
	@Timeout(value = 10, unit = TimeUnit.MINUTES)
	void theModelCheckerFindsTheGhostHandOverPutBack() throws Exception {
		assertThat(mutant.waitFor(8, TimeUnit.MINUTES)).as("the mutant's model check ended").isTrue();
		String printed = Files.readString(output, StandardCharsets.UTF_8);
		System.out.printf("[mutants] | %s | found by the model checker: %s |%n", Mutant.GHOST_HAND_OVER.title(),
				printed.lines().filter((line) -> line.contains("ghost:")).findFirst().orElse("(nothing)").strip());
		assertThat(mutant.exitValue()).as(printed).isEqualTo(1);
		assertThat(printed).contains("ghost:");
	}

}
